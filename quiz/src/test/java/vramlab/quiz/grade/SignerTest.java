package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The child's lines check only under the key the parent gave that child, and only as written. */
class SignerTest {
    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();

    @Test
    @DisplayName("the child's own lines check")
    void ownLines() {
        ChildRunner.Signer child = new ChildRunner.Signer(KEY), parent = new ChildRunner.Signer(KEY);
        for (String text : List.of("START\tu1", "END\tu1\trow", "DONE")) {
            assertThat(parent.check(child.sign(text))).isEqualTo(text);
        }
    }

    @Test
    @DisplayName("a line without the MAC, with another key's MAC, or changed under its MAC is refused")
    void forgedLines() {
        ChildRunner.Signer child = new ChildRunner.Signer(KEY), parent = new ChildRunner.Signer(KEY);
        ChildRunner.Signer other = new ChildRunner.Signer("another key, another child......".getBytes());
        String first = child.sign("END\tu1\t3.1\tn\t2\t0\tFAILED\tTodo");
        assertThat(parent.check("END\tu1\t3.1\tn\t2\t2\tPASSED\t")).as("no MAC").isNull();
        assertThat(parent.check(other.sign("END\tu1\t3.1\tn\t2\t2\tPASSED\t"))).as("another key").isNull();
        String edited = first.replace("FAILED", "PASSED");
        assertThat(parent.check(edited)).as("the text changed under its MAC").isNull();
        assertThat(parent.check(first)).as("the real line still checks after the forgeries").isNotNull();
    }
}
