package vramlab.triage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Inside a container NVML lists this process by its host pid, so PyTorch prints it as "Process P
 * has X memory in use" with no "this process" line. The ladder finds that line and says so, but
 * the report's "other processes" figure (and --json's otherProcesses) still summed every line, this
 * process included: 15.25 GiB of "other processes" over a line marked "(this process)" in
 * kaito-project/kaito#976, where the ladder itself says no other process is listed.
 */
@DisplayName("\"other processes\" leaves out the line the report marks as this process")
class OtherProcessesShownTest {
    /** kaito-project/kaito#976 (vLLM on a 16 GB card): one process line, and it is this one. */
    static final String KAITO = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 546.00 MiB. GPU 0 has"
            + " a total capacity of 15.77 GiB of which 514.19 MiB is free. Process 562167 has 15.25 GiB memory in"
            + " use. Of the allocated memory 13.73 GiB is allocated by PyTorch, with 46.00 MiB allocated in private"
            + " pools (e.g., CUDA Graphs), and 736.86 MiB is reserved by PyTorch but unallocated.";

    /** QwenLM/Qwen2.5-Omni#240: two process lines; the 29.07 GiB one holds what PyTorch reserved. */
    static final String QWEN = "CUDA out of memory. Tried to allocate 124.68 GiB. GPU 0 has a total capacity of"
            + " 95.22 GiB of which 51.23 GiB is free. Process 608946 has 14.91 GiB memory in use. Process 734147 has"
            + " 29.07 GiB memory in use. Of the allocated memory 25.50 GiB is allocated by PyTorch, and 3.14 GiB is"
            + " reserved by PyTorch but unallocated.";

    private static String row(String text, String label) {
        return text.lines().filter(l -> l.trim().startsWith(label)).findFirst().orElseThrow().trim();
    }

    @Test
    @DisplayName("the only line is this process: other processes 0 bytes, in the text and in --json")
    void onlyLineIsThisProcess() {
        Diagnosis d = Triage.of(KAITO);
        assertThat(d.selfSeenAs()).isEqualTo(562167);
        assertThat(row(d.text(), "other processes")).isEqualTo("other processes                               0 bytes (0 bytes)");
        assertThat(d.text()).contains("process 562167 (this process)", "the message lists none besides this one");
        assertThat(d.json()).contains("\"otherProcesses\":0,");
    }

    @Test
    @DisplayName("two lines, one of them this process: other processes is the other line alone")
    void oneOfTwo() {
        Diagnosis d = Triage.of(QWEN);
        assertThat(d.selfSeenAs()).isEqualTo(734147);
        long other = d.reading().processes().get(608946);
        assertThat(row(d.text(), "other processes")).endsWith("(" + other + " bytes)");
        assertThat(d.json()).contains("\"otherProcesses\":" + other + ",");
        // what the parser read is unchanged: the sum of the lines
        assertThat(d.reading().get(Figure.OTHER_PROCESSES))
                .isEqualTo(d.reading().processes().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    @DisplayName("a message with a 'this process' line: other processes is every Process line, as before")
    void thisProcessLinePrinted() {
        String m = "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 39.39 GiB of which"
                + " 1.12 GiB is free. Process 1234 has 13.50 GiB memory in use. Including non-PyTorch memory, this"
                + " process has 24.75 GiB memory in use. Of the allocated memory 22.10 GiB is allocated by PyTorch,"
                + " and 1.90 GiB is reserved by PyTorch but unallocated.";
        Diagnosis d = Triage.of(m);
        assertThat(d.selfSeenAs()).isEqualTo(-1);
        assertThat(d.json()).contains("\"otherProcesses\":" + d.reading().processes().get(1234) + ",");
        assertThat(Map.copyOf(d.reading().processes())).hasSize(1);
    }
}
