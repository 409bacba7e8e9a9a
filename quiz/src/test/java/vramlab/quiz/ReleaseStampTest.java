package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReleaseStamp} on repositories built here: a kit unpacked inside another repository takes
 * no commit from it, a kit that is its own repository (even inside another) takes its own, and
 * SOURCE_DATE_EPOCH dates the stamp and a zip's entries in place of the commit.
 */
class ReleaseStampTest {
    @TempDir Path tmp;

    /** Runs git in {@code dir} with a fixed author, committer and date; returns its output. */
    static String git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString(), "-c", "user.name=t", "-c", "user.email=t@example.org",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("GIT_"));         // a hook's GIT_DIR would point every call elsewhere
        env.put("GIT_AUTHOR_DATE", "2024-03-05T12:00:00Z");
        env.put("GIT_COMMITTER_DATE", "2024-03-05T12:00:00Z");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
        return out.strip();
    }

    /** A repository at {@code dir} with {@code file} committed in it; returns the commit's short id. */
    static String repoWith(Path dir, String file) throws Exception {
        Files.createDirectories(dir);
        git(dir, "init", "-q");
        Path f = dir.resolve(file);
        Files.createDirectories(f.getParent());
        Files.writeString(f, "x\n");
        git(dir, "add", "-A");
        git(dir, "commit", "-q", "-m", "one");
        return git(dir, "log", "-1", "--format=%h");
    }

    static boolean hasGit() {
        try {
            return new ProcessBuilder("git", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    @DisplayName("a kit unpacked in a folder of another repository is not a git checkout: the outer repository's commit is not its")
    void kitInsideAnotherRepository() throws Exception {
        Assumptions.assumeTrue(hasGit(), "no git here");
        Path course = tmp.resolve("course");
        String outer = repoWith(course, "vramlab/pom.xml");           // the kit's files committed in the course's repository
        Path kit = course.resolve("vramlab");
        assertThat(ReleaseStamp.of(kit, null)).as("outer commit " + outer).isEqualTo(ReleaseStamp.NONE);
        assertThat(ReleaseStamp.of(kit, null).phrase()).isEqualTo("a copy of the kit that is not a git checkout (no commit)");
        // untracked there, the same
        Path loose = Files.createDirectories(course.resolve("unpacked/vramlab"));
        assertThat(ReleaseStamp.of(loose, null)).isEqualTo(ReleaseStamp.NONE);
        // the outer repository itself still has its commit
        assertThat(ReleaseStamp.of(course, null).commit()).isEqualTo(outer);
    }

    @Test
    @DisplayName("a kit that is its own repository inside another gets its own commit, not the outer one")
    void ownRepositoryInsideAnother() throws Exception {
        Assumptions.assumeTrue(hasGit(), "no git here");
        Path course = tmp.resolve("course");
        String outer = repoWith(course, "README.txt");
        Path kit = course.resolve("kit");
        String own = repoWith(kit, "pom.xml");
        ReleaseStamp s = ReleaseStamp.of(kit, null);
        assertThat(s.commit()).isEqualTo(own).isNotEqualTo(outer);
        assertThat(s.date()).isEqualTo(LocalDate.of(2024, 3, 5));
        assertThat(s.uncommitted()).isFalse();
        assertThat(s.phrase()).isEqualTo("commit " + own + " of 2024-03-05");
        Files.writeString(kit.resolve("pom.xml"), "y\n");
        assertThat(ReleaseStamp.of(kit, null).phrase()).isEqualTo("commit " + own + " of 2024-03-05 plus uncommitted changes");
        // a folder inside the kit's repository is not the kit's top level either
        assertThat(ReleaseStamp.of(Files.createDirectories(kit.resolve("sub")), null)).isEqualTo(ReleaseStamp.NONE);
    }

    @Test
    @DisplayName("SOURCE_DATE_EPOCH dates the stamp (its UTC day) and a zip's entries (its UTC time, to 2 s) in place of the commit")
    void sourceDateEpoch() throws Exception {
        Assumptions.assumeTrue(hasGit(), "no git here");
        Path kit = tmp.resolve("kit");
        String own = repoWith(kit, "pom.xml");
        // 1700000001 s: 2023-11-14T22:13:21Z; a zip keeps even seconds
        ReleaseStamp s = ReleaseStamp.of(kit, "1700000001");
        assertThat(s.commit()).isEqualTo(own);
        assertThat(s.date()).isEqualTo(LocalDate.of(2023, 11, 14));
        assertThat(s.epoch()).isEqualTo(1700000001L);
        assertThat(s.phrase()).isEqualTo("commit " + own + ", dated 2023-11-14 by SOURCE_DATE_EPOCH");
        assertThat(s.zipTime()).isEqualTo(local(LocalDateTime.of(2023, 11, 14, 22, 13, 20)));

        ReleaseStamp none = ReleaseStamp.of(Files.createDirectories(tmp.resolve("copy")), "1700000001");
        assertThat(none.commit()).isNull();
        assertThat(none.phrase()).isEqualTo("a copy of the kit that is not a git checkout (no commit), dated 2023-11-14 by SOURCE_DATE_EPOCH");
        assertThat(none.zipTime()).isEqualTo(s.zipTime());
        // before 1980 a zip's date cannot go: its first day, as reproducible-builds.org's zip example clamps
        assertThat(ReleaseStamp.of(tmp.resolve("copy"), "0").zipTime()).isEqualTo(local(LocalDateTime.of(1980, 1, 1, 0, 0)));
        assertThat(ReleaseStamp.of(tmp.resolve("copy"), "0").date()).isEqualTo(LocalDate.of(1970, 1, 1));
        // unset: the commit's date at midnight, as before
        assertThat(ReleaseStamp.of(kit, null).zipTime()).isEqualTo(local(LocalDateTime.of(2024, 3, 5, 0, 0)));
    }

    @Test
    @DisplayName("a SOURCE_DATE_EPOCH that is not whole seconds in decimal digits, or too late for a zip, is refused naming the value")
    void badSourceDateEpoch() {
        Path copy = tmp;
        for (String bad : List.of("", "abc", "1.5", "-1", " 1700000000", "1700000000\n", "1e9", "+5", "\u0661\u0662")) {
            assertThatThrownBy(() -> ReleaseStamp.of(copy, bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("SOURCE_DATE_EPOCH is '" + bad + "': expected whole seconds since 1970-01-01T00:00:00Z in"
                            + " decimal digits, as date +%s prints them (reproducible-builds.org/specs/source-date-epoch)");
        }
        assertThatThrownBy(() -> ReleaseStamp.of(copy, "4102444800")).hasMessageStartingWith(
                "SOURCE_DATE_EPOCH is '4102444800' (2100-01-01T00:00:00Z): expected a time no later than 2096-12-31T23:59:59Z");
        assertThatThrownBy(() -> ReleaseStamp.of(copy, "99999999999999999999999")).hasMessageStartingWith(
                "SOURCE_DATE_EPOCH is '99999999999999999999999': expected a time no later than 2096-12-31T23:59:59Z");
        assertThat(ReleaseStamp.of(copy, String.valueOf(ReleaseStamp.LATEST_EPOCH)).date()).isEqualTo(LocalDate.of(2096, 12, 31));
        assertThat(ReleaseStamp.of(copy, "0001700000000").epoch()).isEqualTo(1700000000L);
    }

    private static long local(LocalDateTime t) { return t.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli(); }
}
