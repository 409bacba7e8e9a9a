package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;

class GraderTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            alice            | alice
            ada@example.edu  | ada@example.edu
            A-12_34          | A-12_34
            ../../etc        | .._.._etc~
            ..               | ..~
            a b/c\\d         | a_b_c_d~
            张三              | __~
            """)
    @DisplayName("a student id becomes a folder name that cannot leave the work area; a safe id stays as it is")
    void folderNames(String id, String folder) {
        String f = Grader.folderName(id);
        assertThat(f).doesNotContain("/").doesNotContain("\\").matches("[A-Za-z0-9._@+~-]{1,64}");
        if (folder.endsWith("~")) assertThat(f).startsWith(folder).matches(".*~[0-9a-f]{8}");
        else assertThat(f).isEqualTo(folder);
    }

    @Test
    @DisplayName("two students never share a folder: ids made of other characters, or alike in their first 64")
    void folderNamesAreOnePerStudent() {
        List<String> ids = new ArrayList<>(List.of("张三", "李四", "王五", "José Núñez", "Jos__N__ez", "Jos_ Núñez",
                "a b", "a_b", "a/b", "..", "...", "_..", "x".repeat(64), "x".repeat(65), "x".repeat(66),
                "x".repeat(70) + "1", "x".repeat(70) + "2"));
        SeededIds.add(ids, 500);
        Map<String, String> byFolder = new HashMap<>();
        for (String id : ids) {
            String before = byFolder.put(Grader.folderName(id), id);
            assertThat(before).as("%s and %s share the folder %s", before, id, Grader.folderName(id)).isNull();
        }
    }

    @Test
    @DisplayName("the practice numbers' work area is 'practice', never the internal id; still one area per student")
    void areaNames() {
        assertThat(Grader.areaName(vramlab.quiz.Variant.SEED)).isEqualTo("practice");
        assertThat(Grader.areaName("practice")).matches("practice~[0-9a-f]{8}");
        assertThat(Grader.areaName("alice")).isEqualTo("alice");
        List<String> ids = new ArrayList<>(List.of(vramlab.quiz.Variant.SEED, "practice", "practice~", "Practice",
                "张三", "李四", "a b", "a_b", ".."));
        SeededIds.add(ids, 500);
        Map<String, String> byArea = new HashMap<>();
        for (String id : ids) {
            String before = byArea.put(Grader.areaName(id), id);
            assertThat(before).as("%s and %s share the area %s", before, id, Grader.areaName(id)).isNull();
        }
    }

    @Test
    @DisplayName("no student's folder or work area is one of the grader's own (_inventory, .work, gradebook.csv), in any case")
    void noStudentNamesTheGradersOwn() {
        List<String> ids = new ArrayList<>(List.of("_inventory", "_Inventory", "_INVENTORY", ".work", ".WORK", "work", "Work",
                "gradebook.csv", "GradeBook.CSV", "gradebook-items.csv", "gradebook.csv.tmp", "Gradebook-Items.csv.TMP",
                "_", ".", "..", "_x", ".x", "_inventory~", "practice", vramlab.quiz.Variant.SEED));
        ids.addAll(Grader.GRADERS_OWN);
        SeededIds.add(ids, 500);
        assertThat(Grader.GRADERS_OWN).as("the grader's own names never hold the hash's ~").noneMatch(n -> n.contains("~"));
        assertThat(Grader.GRADERS_OWN).contains(Inventory.AREA, Grader.CLASS_WORK, Gradebook.WIDE, Gradebook.LONG);
        for (String id : ids) {
            for (String name : List.of(Grader.folderName(id), Grader.areaName(id))) {
                assertThat(Grader.GRADERS_OWN).as("%s's folder %s", id, name).noneMatch(own -> own.equalsIgnoreCase(name));
                if (!name.contains("~")) {
                    assertThat(name).as("%s's folder begins with the grader's prefix but has no hash", id)
                            .doesNotStartWith(".").doesNotStartWith("_");
                }
            }
        }
        assertThat(Grader.folderName("_inventory")).matches("_inventory~[0-9a-f]{8}");
        assertThat(Grader.folderName("gradebook.csv")).matches("gradebook\\.csv~[0-9a-f]{8}");
        assertThat(Grader.folderName("ada.lovelace")).isEqualTo("ada.lovelace");
    }

    /** Seeded random ids over a small alphabet of safe and unsafe characters, so that many differ only there. */
    static final class SeededIds {
        static void add(List<String> ids, int n) {
            java.util.Random r = new java.util.Random(49);
            String alphabet = "ab_. é张-";
            java.util.Set<String> seen = new java.util.HashSet<>(ids);
            while (n > 0) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1 + r.nextInt(6); i > 0; i--) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
                if (seen.add(sb.toString())) { ids.add(sb.toString()); n--; }
            }
        }
    }
}
