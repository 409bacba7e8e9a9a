package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** JShell shows a long as JShell does, then its address in hex or its size in units. */
class JshellValuesTest {
    @ParameterizedTest(name = "{0} {1} ==> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            long           | 139680926400512 | 139680926400512 (0x7f0a00000000)
            long           | 1099511627776   | 1099511627776 (0x10000000000)
            long           | 20971520        | 20971520 (20.00 MiB)
            Long           | 21102592        | 21102592 (20.12 MiB)
            java.lang.Long | 2048            | 2048 (2.00 KiB)
            long           | -2097152        | -2097152 (-2.00 MiB)
            long           | 1024            | 1024
            long           | 3               | 3
            int            | 20971520        | 20971520
            String         | 139680926400512 | 139680926400512
            long           | 12abc           | 12abc
            """)
    void show(String type, String value, String shown) {
        assertThat(JshellValues.show(type, value)).isEqualTo(shown);
    }
}
