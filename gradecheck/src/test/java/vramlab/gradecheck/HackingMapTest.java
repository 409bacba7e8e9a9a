package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import vramlab.quiz.KitPaths;

/**
 * HACKING's "Where does my change go" table is a promise to a newcomer: from the notes' words to
 * the file. Classes move (a split, a rename), and a map that names a class that is gone sends the
 * reader nowhere. So each row is checked against the tree: every class it names exists in the
 * module and package the row gives, every {@code Class.method} it names is in that class's file,
 * and every step id it gives in parentheses is marked in the class it follows.
 */
@DisplayName("HACKING's map names classes, methods and steps where they are")
class HackingMapTest {

    /** One row of the table: the notes' words, module, packages, and the class column's text. */
    record Row(int line, String words, String module, List<String> packages, String classes) {}

    static Path root;
    static List<Row> rows;

    @BeforeAll
    static void readMap() throws IOException {
        root = KitPaths.root();
        List<String> lines = Files.readAllLines(root.resolve("HACKING.adoc"));
        rows = new ArrayList<>();
        int start = lines.indexOf("[[where]]");
        assertThat(start).as("HACKING.adoc has its [[where]] section").isNotNegative();
        int tableStart = -1;
        for (int i = start; i < lines.size(); i++) {
            if (!lines.get(i).equals("|===")) continue;
            if (tableStart < 0) { tableStart = i; continue; }
            break;
        }
        for (int i = tableStart + 1; i < lines.size() && !lines.get(i).equals("|==="); i++) {
            String l = lines.get(i);
            if (!l.startsWith("|") || l.startsWith("|The notes say")) continue;
            String[] cells = l.substring(1).split(" \\|", -1);
            if (cells.length != 4) continue;
            rows.add(new Row(i + 1, cells[0].trim(), code(cells[1]).get(0), code(cells[2]), cells[3]));
        }
    }

    private static List<String> code(String cell) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(cell);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    private static final Pattern CLASS_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*)(?:\\.([a-zA-Z][A-Za-z0-9]*))?`(?: \\(([0-9.,\\- ]+)[^)]*\\))?");

    @Test
    @DisplayName("the map has its rows (a parse that finds none would pass everything)")
    void theMapHasRows() {
        assertThat(rows).hasSizeGreaterThan(40);
    }

    @Test
    @DisplayName("every class a row names is a file in that row's module and package")
    void everyClassExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Row row : rows) {
            if (row.module().startsWith("chapters/")) continue; // per chapter: described, not named
            Matcher m = CLASS_REF.matcher(row.classes());
            while (m.find()) {
                String cls = m.group(1);
                if (cls.startsWith("ChNN") || cls.equals("NAMES")) continue;
                Path file = find(row, cls);
                if (file == null) {
                    missing.add("HACKING.adoc:" + row.line() + " (" + row.words() + "): no " + cls
                            + ".java in " + row.module() + " under " + row.packages());
                    continue;
                }
                String text = Files.readString(file);
                String method = m.group(2);
                if (method != null && !Pattern.compile("\\b" + method + "\\b").matcher(text).find()) {
                    missing.add("HACKING.adoc:" + row.line() + " (" + row.words() + "): " + cls + "." + method
                            + " is not in " + root.relativize(file));
                }
                String steps = m.group(3);
                if (steps != null) {
                    for (String step : steps.split("[, ]+")) {
                        for (String id : expand(step)) {
                            if (!text.contains("lab:begin " + id + " ")) {
                                missing.add("HACKING.adoc:" + row.line() + " (" + row.words() + "): step " + id
                                        + " is not marked in " + root.relativize(file));
                            }
                        }
                    }
                }
            }
        }
        assertThat(missing).as("rows of HACKING's map that send a reader nowhere").isEmpty();
    }

    /** "6.3-6.5" -> 6.3, 6.4, 6.5; "3.2" -> 3.2. */
    private static List<String> expand(String step) {
        List<String> ids = new ArrayList<>();
        if (step.isBlank()) return ids;
        if (step.contains("-")) {
            String[] ends = step.split("-");
            String chapter = ends[0].substring(0, ends[0].indexOf('.'));
            int from = Integer.parseInt(ends[0].substring(ends[0].indexOf('.') + 1));
            int to = Integer.parseInt(ends[1].substring(ends[1].indexOf('.') + 1));
            for (int n = from; n <= to; n++) ids.add(chapter + "." + n);
        } else {
            ids.add(step);
        }
        return ids;
    }

    private static Path find(Row row, String cls) throws IOException {
        for (String pkg : row.packages()) {
            for (String tree : List.of("src/main/java", "src/test/java")) {
                Path dir = root.resolve(row.module()).resolve(tree).resolve(pkg.replace('.', '/'));
                Path file = dir.resolve(cls + ".java");
                if (Files.isRegularFile(file)) return file;
                // a nested type: Outer.java declares it
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> s = Files.list(dir)) {
                        for (Path f : (Iterable<Path>) s::iterator) {
                            if (f.toString().endsWith(".java")
                                    && Pattern.compile("(class|interface|record|enum) " + cls + "\\b")
                                            .matcher(Files.readString(f)).find()) {
                                return f;
                            }
                        }
                    }
                }
            }
        }
        return null;
    }
}
