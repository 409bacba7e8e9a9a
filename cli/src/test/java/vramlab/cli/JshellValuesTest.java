package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.ServiceLoader;

import jdk.jshell.JShell;
import jdk.jshell.SnippetEvent;
import jdk.jshell.spi.ExecutionControlProvider;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
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
            long           | 2097153         | 2097153 (2 MiB + 1 B)
            long           | 2097151         | 2097151 (2 MiB - 1 B)
            long           | 2096640         | 2096640 (2 MiB - 512 B)
            long           | 2097150         | 2097150 (2 MiB - 2 B)
            long           | 1048575         | 1048575 (1 MiB - 1 B)
            long           | 1047552         | 1047552 (1023.00 KiB)
            long           | -2097153        | -2097153 (-(2 MiB + 1 B))
            long           | -2097151        | -2097151 (-(2 MiB - 1 B))
            long           | -1099511627775  | -1099511627775 (-(1 TiB - 1 B))
            long           | -300000         | -300000 (-292.97 KiB)
            long           | 1025            | 1025 (1 KiB + 1 B)
            long           | 1536            | 1536 (1.50 KiB)
            long           | 300000          | 300000 (292.97 KiB)
            long           | 21102593        | 21102593 (20.13 MiB)
            long           | 1073742336      | 1073742336 (1 GiB + 512 B)
            long           | 1099511627775   | 1099511627775 (1 TiB - 1 B)
            long           | 1078984705      | 1078984705 (1029 MiB + 1 B)
            long           | 1610612737      | 1610612737 (1536 MiB + 1 B)
            long           | 1610612736      | 1610612736 (1.50 GiB)
            long           | 1024            | 1024
            long           | 3               | 3
            int            | 20971520        | 20971520
            String         | 139680926400512 | 139680926400512
            long           | 12abc           | 12abc
            """)
    void show(String type, String value, String shown) {
        assertThat(JshellValues.show(type, value)).isEqualTo(shown);
    }

    @Test
    @DisplayName("JShell's execution shows a long variable, expression or variable named alone with its hex or units, nothing else changed")
    void inJshell() {
        try (JShell js = JShell.builder().executionEngine(new JshellLongs(), Map.of()).build()) {
            assertThat(value(js, "long va = 0x7f0a00000000L;")).isEqualTo("139680926400512 (0x7f0a00000000)");
            assertThat(value(js, "20L << 20")).isEqualTo("20971520 (20.00 MiB)");
            assertThat(value(js, "(2L << 20) + 1")).as("an off-by-one is not shown as the round figure").isEqualTo("2097153 (2 MiB + 1 B)");
            assertThat(value(js, "va + 0")).isEqualTo("139680926400512 (0x7f0a00000000)");
            assertThat(value(js, "int n = 20971520;")).isEqualTo("20971520");
            assertThat(value(js, "\"20971520\"")).isEqualTo("\"20971520\"");
            assertThat(value(js, "long small = 3;")).isEqualTo("3");
            // An earlier variable named alone: JShell gives the snippet no field; its type is read from the class file.
            assertThat(value(js, "va")).isEqualTo("139680926400512 (0x7f0a00000000)");
            assertThat(value(js, "Long size = 20L << 20;")).isEqualTo("20971520 (20.00 MiB)");
            assertThat(value(js, "size")).isEqualTo("20971520 (20.00 MiB)");
            assertThat(value(js, "n")).isEqualTo("20971520");
            assertThat(value(js, "System.out.println(va)")).isEmpty();
        }
    }

    @Test
    @DisplayName("the real JShell finds it by name (jshell --execution vramlab) through META-INF/services")
    void registered() {
        assertThat(ServiceLoader.load(ExecutionControlProvider.class).stream().map(p -> p.get().name()))
                .contains(JshellLongs.NAME);
    }

    static String value(JShell js, String snippet) {
        SnippetEvent e = js.eval(snippet).get(0);
        assertThat(e.exception()).as(snippet).isNull();
        return e.value();
    }
}
