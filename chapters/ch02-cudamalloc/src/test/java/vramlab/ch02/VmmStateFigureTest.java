package vramlab.ch02;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The VMM state machine is drawn from what the simulator answers, and says what the notes' table says. */
@DisplayName("The VMM state machine figure")
class VmmStateFigureTest {
    @Test
    @DisplayName("every forward and backward call succeeds in its state")
    void theWayThereAndBack() {
        assertThat(VmmStateFigure.forwardAnswers()).containsOnly("ok").hasSize(4);
        assertThat(VmmStateFigure.backAnswers()).containsOnly("ok").hasSize(3);
    }

    @Test
    @DisplayName("each refusal is the error the rules table of the notes gives")
    void refusals() {
        assertThat(VmmStateFigure.REFUSALS).extracting(VmmStateFigure.Refusal::answer).containsExactly(
                "CUDA_ERROR_INVALID_VALUE", "CUDA_ERROR_INVALID_VALUE", "page fault", "CUDA_ERROR_INVALID_VALUE",
                "CUDA_ERROR_ALREADY_MAPPED", "CUDA_ERROR_INVALID_VALUE");
        String svg = VmmStateFigure.figureVmmStates();
        assertThat(svg).contains("cuMemUnmap(va, 1 MiB) \u2192 CUDA_ERROR_INVALID_VALUE")
                .contains("a kernel reads va \u2192 page fault").doesNotContain("accepted");
    }
}
