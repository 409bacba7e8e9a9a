package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import vramlab.quiz.ScoreRow;
import vramlab.quiz.grade.Grader;

/**
 * The graded items of one chapter's compiled tests, listed once and kept beside the check's
 * work folder: listing them costs a JVM, and they change only when the kit is rebuilt. The
 * cache is keyed by the test folder's files (names, sizes, modification times).
 */
final class InventoryCache {
    private InventoryCache() {}

    /** Gives {@code grader} the inventory of {@code tests}: the cached one, or a fresh listing it then caches. */
    static void load(Grader grader, Path tests, Path work) throws IOException, InterruptedException {
        String stamp = stamp(tests);
        Path file = work.resolve("inventory-" + tests.getParent().getParent().getFileName() + ".tsv");
        if (Files.isRegularFile(file)) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (!lines.isEmpty() && lines.get(0).equals(stamp)) {
                Map<String, ScoreRow> items = new LinkedHashMap<>();
                try {
                    for (String line : lines.subList(1, lines.size())) {
                        String[] f = line.split("\t", 2);
                        items.put(f[0], ScoreRow.fromTsv(f[1]));
                    }
                    grader.useInventory(items);
                    return;
                } catch (RuntimeException e) {
                    // a damaged cache is listed again
                }
            }
        }
        List<String> out = new ArrayList<>(List.of(stamp));
        grader.inventory().forEach((uid, row) -> out.add(uid + "\t" + row.toTsv()));
        Files.createDirectories(work);
        Files.write(file, out, StandardCharsets.UTF_8);
    }

    /** A digest of every file under {@code dir}: its path, size and modification time. */
    static String stamp(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                md.update((dir.relativize(f) + " " + Files.size(f) + " " + Files.getLastModifiedTime(f).toMillis() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return "inventory " + HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
