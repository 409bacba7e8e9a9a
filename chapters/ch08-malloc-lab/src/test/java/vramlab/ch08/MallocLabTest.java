package vramlab.ch08;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class MallocLabTest {
    @Test
    void theLabPrintsEveryEntryOnBothShortWorkloadsAndTheirIndex() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MallocLab.run(new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        for (String entry : new String[] {"segregated-fits", "pytorch", "expandable", "buddy"}) {
            assertThat(text).contains(entry);
        }
        assertThat(text).contains("diffusion-sampling").contains("llm-serving").contains("performance index")
                .doesNotContain("BAD");
    }
}
