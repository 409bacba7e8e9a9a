package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instructor's salt from a file: its first line, and a missing file said once, plainly. */
class SaltTest {
    @TempDir Path tmp;

    @AfterEach
    void clear() { System.clearProperty("vramlab.salt.file"); }

    @Test
    @DisplayName("a missing salt file says its name and 'no such file', not the path twice")
    void missing() {
        System.setProperty("vramlab.salt.file", "grading/nosuch.txt");
        assertThatThrownBy(Salt::resolve).isInstanceOf(UncheckedIOException.class)
                .hasMessage("salt file grading/nosuch.txt: no such file");
    }

    @Test
    @DisplayName("the file's first line is the salt: two files that differ after it give the same numbers")
    void firstLine() throws Exception {
        Path a = Files.writeString(tmp.resolve("a.txt"), "  s3cret  \nnotes\n");
        Path b = Files.writeString(tmp.resolve("b.txt"), "s3cret\n");
        System.setProperty("vramlab.salt.file", a.toString());
        Salt fromA = Salt.resolve();
        System.setProperty("vramlab.salt.file", b.toString());
        Salt fromB = Salt.resolve();
        assertThat(fromA.isPractice()).isFalse();
        assertThat(Variant.of("ch03", "ada", fromA).fingerprint()).isEqualTo(Variant.of("ch03", "ada", fromB).fingerprint())
                .isNotEqualTo(Variant.of("ch03", "ada", Salt.of("other")).fingerprint());
    }
}
