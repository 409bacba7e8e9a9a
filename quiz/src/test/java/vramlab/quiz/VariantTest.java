package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class VariantTest {
    @Test
    @DisplayName("a student's numbers are the same every time, and differ between students and salts")
    void deterministicAndPersonal() {
        Variant a = Variant.of("ch03", "alice", Salt.PRACTICE);
        assertThat(Variant.of("ch03", "alice", Salt.PRACTICE).between("x", 0, 1_000_000))
                .isEqualTo(a.between("x", 0, 1_000_000));
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) seen.add(Variant.of("ch03", "s" + i, Salt.PRACTICE).between("x", 0, 1L << 40));
        assertThat(seen).as("50 students, 50 different numbers").hasSize(50);
        assertThat(Variant.of("ch03", "alice", Salt.of("instructor-secret")).fingerprint()).isNotEqualTo(a.fingerprint());
        assertThat(Variant.of("ch04", "alice", Salt.PRACTICE).fingerprint()).isNotEqualTo(a.fingerprint());
    }

    @Test
    @DisplayName("draws stay in range and every choice is reachable")
    void ranges() {
        Set<String> picked = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            Variant v = Variant.of("ch04", "student" + i, Salt.PRACTICE);
            assertThat(v.between("n", 3, 6)).isBetween(3L, 6L);
            picked.add(v.pick("p", List.of("a", "b", "c")));
        }
        assertThat(picked).containsExactlyInAnyOrder("a", "b", "c");
        assertThatThrownBy(() -> Variant.seed("ch03").between("n", 5, 4)).hasMessageContaining("5 > 4");
    }

    @Test
    @DisplayName("no student id means the practice numbers; the salt never shows in text")
    void seedAndSecrecy() {
        assertThat(Variant.of("ch03", null, Salt.PRACTICE).isSeed()).isTrue();
        assertThat(Variant.of("ch03", " ", Salt.PRACTICE).student()).isEqualTo(Variant.SEED);
        Salt s = Salt.of("hunter2");
        assertThat(s.toString()).doesNotContain("hunter2");
        assertThat(Variant.of("ch03", "bob", s).toString()).doesNotContain("hunter2");
        assertThatThrownBy(() -> Salt.of(" ")).hasMessageContaining("blank");
    }
}
