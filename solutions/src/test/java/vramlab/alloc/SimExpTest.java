package vramlab.alloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static vramlab.units.Bytes.mib;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SimExpTest {

    @Test
    @DisplayName("pages go back to the driver at free, so the card can be refilled at fresh VA")
    void pagesReturnAtFree() {
        SimExp exp = new SimExp(mib(40));
        SimExp.Mapping a = exp.alloc(mib(20));
        SimExp.Mapping b = exp.alloc(mib(20));
        assertThatThrownBy(() -> exp.alloc(1)).isInstanceOf(CudaOutOfMemoryError.class)
                .hasMessageContaining("physical exhausted");
        assertThat(exp.mapped()).isEqualTo(mib(40));   // the failed call left nothing mapped
        exp.free(a);
        SimExp.Mapping c = exp.alloc(mib(20));
        assertThat(c.offset()).isEqualTo(b.offset() + b.size());
        assertThat(exp.mapped()).isEqualTo(mib(40));
    }

    @Test
    @DisplayName("a failed alloc gives back the pages it had already mapped")
    void failedAllocUnwinds() {
        SimExp exp = new SimExp(mib(10));
        exp.alloc(mib(4));
        assertThatThrownBy(() -> exp.alloc(mib(8))).isInstanceOf(CudaOutOfMemoryError.class);
        assertThat(exp.mapped()).isEqualTo(mib(4));
    }
}
