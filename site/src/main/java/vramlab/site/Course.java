package vramlab.site;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The course as the site sees it: the map of chapters 01-07 (ARCHITECTURE.md's table, kept in
 * {@code course.tsv}) and the chapter modules present on disk, each with its notes when they
 * exist. A chapter's notes are {@code chapters/chNN-slug/src/docs/asciidoc/chNN-slug.adoc};
 * its deck is {@code slides/chNN-slug.adoc}, written as slides (see slides/README.adoc).
 */
public final class Course {
    /** One row of the course map. */
    public record Entry(int number, String slug, String title, String teaches) {
        public String id() { return String.format("ch%02d-%s", number, slug); }

        /** {@code Chapter 3}. */
        public String label() { return "Chapter " + number; }

        /** {@code Chapter 3 · The caching allocator: size classes, pools, split, merge}. */
        public String heading() { return label() + " \u00b7 " + title; }

        /** The title up to its first colon or comma: {@code The caching allocator}, {@code cudaMalloc}. */
        public String shortTitle() { return title.split("[:,]", 2)[0].trim(); }
    }

    /** The chapter of this id on the course map, or empty. */
    public static Optional<Entry> entry(String id) {
        return map().stream().filter(e -> e.id().equals(id)).findFirst();
    }

    /** A chapter module on disk. {@code notes} and {@code slides} are empty until written. */
    public record ChapterDir(String id, Path dir, Optional<Path> notes, Optional<Path> slides) {
        public Path docs() { return dir.resolve("src/docs/asciidoc"); }
    }

    private Course() {}

    public static List<Entry> map() {
        List<Entry> out = new ArrayList<>();
        try (InputStream in = Course.class.getResourceAsStream("course.tsv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] f = line.split("\t");
                out.add(new Entry(Integer.parseInt(f[0]), f[1], f[2], f[3]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Every {@code chapters/chNN-*} folder under {@code root}, in number order. */
    public static List<ChapterDir> chapters(Path root) {
        Path dir = root.resolve("chapters");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().matches("ch\\d\\d-[a-z0-9-]+"))
                    .sorted()
                    .map(Course::chapter)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ChapterDir chapter(Path dir) {
        String id = dir.getFileName().toString();
        Path docs = dir.resolve("src/docs/asciidoc");
        Optional<Path> notes = Optional.of(docs.resolve(id + ".adoc")).filter(Files::isRegularFile);
        Path root = dir.getParent() == null ? dir : dir.getParent().getParent();
        Optional<Path> slides = Optional.of(deckOf(root, id)).filter(Files::isRegularFile);
        return new ChapterDir(id, dir, notes, slides);
    }

    /** Where a chapter's deck lives: {@code slides/chNN-slug.adoc} at the top of the kit. */
    public static Path deckOf(Path root, String id) {
        return root.resolve("slides").resolve(id + ".adoc");
    }
}
