package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CodeScanTest {
    @TempDir Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Class.forName("vramlab.alloc.Block").getConstructor(int.class)        | reflection
            sun.misc.Unsafe u = null;                                                | Unsafe or JDK internals
            new vramlab.quiz.ScoreRow("3.1", "x", 2, 2, "PASSED", "");               | the grading harness
            new ProcessBuilder("sh").start();                                        | a process
            System.exit(0);                                                          | System.exit or halt
            System.setProperty("vramlab.answers", "/tmp");                           | system properties
            java.nio.file.Files.writeString(p, "END");                               | file writes
            """)
    @DisplayName("a use the reference's file does not make is reported, by file and kind")
    void reported(String code, String kind) throws Exception {
        Path mine = tmp.resolve("mine/vramlab/alloc/ToyPolicy.java");
        Path ref = tmp.resolve("ref/vramlab/alloc/ToyPolicy.java");
        Files.createDirectories(mine.getParent());
        Files.createDirectories(ref.getParent());
        Files.writeString(ref, "class ToyPolicy { long roundSize(long n) { return n; } }");
        Files.writeString(mine, "class ToyPolicy { long roundSize(long n) { " + code + " return n; } }");
        assertThat(CodeScan.review(tmp.resolve("mine"), tmp.resolve("ref")))
                .containsExactly("vramlab/alloc/ToyPolicy.java uses " + kind);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            // System.exit(0) is not how a step ends                 | none
            /** Files.write is not needed here */                    | none
            """)
    @DisplayName("comments, and what the reference itself does, are not reported")
    void notReported(String code, String ignored) throws Exception {
        Path mine = tmp.resolve("mine/vramlab/units/Bytes.java");
        Path ref = tmp.resolve("ref/vramlab/units/Bytes.java");
        Files.createDirectories(mine.getParent());
        Files.createDirectories(ref.getParent());
        Files.writeString(ref, "class Bytes { void f() { System.setProperty(\"a\", \"b\"); } }");
        Files.writeString(mine, "class Bytes { void f() { System.setProperty(\"a\", \"b\"); }\n" + code + "\n}");
        assertThat(CodeScan.review(tmp.resolve("mine"), tmp.resolve("ref"))).isEmpty();
    }
}
