package vramlab.ch02.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A prompt's aside after an exact byte count never shows a size near a whole MiB as that MiB's round figure. */
class ShowTest {
    @ParameterizedTest(name = "{0} B is followed by ''{1}''")
    @CsvSource(delimiter = '|', textBlock = """
            1048576  | ''
            4194304  | ' (4 MiB)'
            3145729  | ' (3 MiB + 1 B)'
            2097151  | ' (2 MiB - 1 B)'
            22024963 | ' (21 MiB + 4867 B)'
            25165686 | ' (24 MiB - 138 B)'
            5123456  | ' (4.89 MiB)'
            """)
    @DisplayName("the aside: whole MiB, the whole MiB and the bytes off it, or format_size's two decimals")
    void about(long bytes, String aside) {
        assertThat(Show.about(bytes)).isEqualTo(aside);
    }
}
