package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * macOS's and Windows's disks do not tell {@code Ana/} from {@code ana/}: two ids of one class that
 * differ only in case shared a work area and a reports folder ({@link Grader#folderNames}).
 */
class CaseFoldFoldersTest {
    @Test
    @DisplayName("Ana and ana in one class get two folders that differ ignoring case; bob keeps his own")
    void anaAndAna() {
        Map<String, String> f = ClassGrading.folders(List.of("Ana", "ana", "bob", "José"), List.of());
        assertThat(f.get("Ana")).isNotEqualToIgnoringCase(f.get("ana"));
        assertThat(f.get("Ana")).matches("Ana~[0-9a-f]{8}");
        assertThat(f.get("ana")).matches("ana~[0-9a-f]{8}");
        assertThat(f.get("bob")).isEqualTo("bob");
        assertThat(f.get("José")).isEqualTo(Grader.folderName("José"));
        assertThat(Grader.areaName("Ana", f.get("Ana"))).isNotEqualToIgnoringCase(Grader.areaName("ana", f.get("ana")));
        Grader.Result ana = new Grader.Result("ana", List.of(), List.of(), "run", "now", 1000, "labs/ at the top");
        assertThat(ClassGrading.progress(1, 2, ana, f.get("ana"))).endsWith(", reports in " + f.get("ana") + "/");
    }

    @Test
    @DisplayName("a re-grade of one of them alone lands in the folder the class's grading gave it, and so does a newcomer's")
    void regradeAlone() {
        Map<String, String> first = ClassGrading.folders(List.of("Ana", "ana", "bob"), List.of());
        Map<String, String> again = ClassGrading.folders(List.of("ana"), List.of("Ana", "ana", "bob"));
        assertThat(again).containsExactlyEntriesOf(Map.of("ana", first.get("ana")));
        // ana graded last week (ana/); Ana hands in late: not ana/ on a disk that folds case
        Map<String, String> late = ClassGrading.folders(List.of("Ana"), List.of("ana", "bob"));
        assertThat(late.get("Ana")).isNotEqualToIgnoringCase("ana");
    }

    /**
     * Runs of random subsets of a small pool, into one gradebook, on a disk that folds case: no
     * run writes into a folder another student's reports are in, and once an id has a case twin
     * in the gradebook its folder never changes again. Compared with the plain rule, which is
     * what every id gets when no twin is about.
     */
    @Test
    @DisplayName("seeded runs into one gradebook: no folder is ever another student's, ignoring case; re-grades stay put")
    void seededRuns() {
        List<String> pool = List.of("ana", "Ana", "ANA", "bob", "Bob", "cy", "José", "jOSÉ", "_x", "_X", "practice", "Practice");
        for (int seed = 0; seed < 300; seed++) {
            Random r = new Random(seed);
            Set<String> book = new LinkedHashSet<>();
            Map<String, String> owner = new HashMap<>();      // a folder, lower-cased, -> the id whose reports are there
            Map<String, String> settled = new HashMap<>();    // an id with a twin in the gradebook -> its folder
            for (int run = 0; run < 6; run++) {
                List<String> graded = new ArrayList<>();
                for (String id : pool) if (r.nextInt(3) == 0) graded.add(id);
                Map<String, String> f = ClassGrading.folders(graded, book);
                Set<String> areas = new java.util.HashSet<>();
                for (String id : graded) {
                    String folder = f.get(id);
                    String was = owner.put(folder.toLowerCase(Locale.ROOT), id);
                    assertThat(was).as("seed %d run %d: %s's folder %s holds %s's reports", seed, run, id, folder, was)
                            .isIn(null, id);
                    assertThat(areas.add(Grader.areaName(id, folder).toLowerCase(Locale.ROOT)))
                            .as("seed %d run %d: %s's work area %s is another's", seed, run, id, folder).isTrue();
                    if (settled.containsKey(id)) assertThat(folder).as("seed %d: %s re-graded", seed, id).isEqualTo(settled.get(id));
                    boolean twin = pool.stream().anyMatch(o -> !o.equals(id) && (book.contains(o) || graded.contains(o))
                            && Grader.folderName(o).equalsIgnoreCase(Grader.folderName(id)));
                    if (!twin) assertThat(folder).as("%s has no twin", id).isEqualTo(Grader.folderName(id));
                }
                book.addAll(graded);
                for (String id : graded) {
                    boolean twin = book.stream().anyMatch(o -> !o.equals(id)
                            && Grader.folderName(o).equalsIgnoreCase(Grader.folderName(id)));
                    if (twin) settled.putIfAbsent(id, f.get(id));
                }
            }
        }
    }
}
