package vramlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LabAndJshellCommandTest {

    @Test
    @DisplayName("lab accepts a chapter by number, zero-padded number, ch-number or slug")
    void chapterNames() {
        for (String name : new String[] {"4", "04", "ch04", "real-oom", "ch04-real-oom"}) {
            assertThat(LabCommand.find(name, "lab").id()).as(name).isEqualTo("ch04-real-oom");
        }
        assertThat(CliRun.of("lab", "ch99").err()).startsWith("error: lab: no chapter 'ch99'");   // every lab runs in NoSeedTest
    }

    @Test
    @DisplayName("piped JShell snippets run with the chapter's imports, print values, and exit")
    void pipedSnippets() {
        CliRun r = CliRun.withInput("var sim = new Sim(mib(40));\nvar a = sim.alloc(mib(3) + 1);\nsim.counters()\n",
                "jshell", "real-oom");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).contains("a ==> seg0[0..4)M 4M LIVE")
                .contains("\"reserved=20M allocated=4M requested=3M\"");
    }

    @Test
    @DisplayName("/exit ends piped input as it ends a session at a terminal: nothing after it runs, no error")
    void pipedExit() {
        CliRun r = CliRun.withInput("long x = 1L << 40;\nx\n/exit\nx + 1\n", "jshell", "4");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("x ==> 1099511627776").doesNotContain("1099511627777");
    }

    @Test
    @DisplayName("a piped snippet that does not compile is reported with its line, exit 2")
    void pipedCompileError() {
        CliRun r = CliRun.withInput("int x = 1;\nint y = ;\n", "jshell", "4");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: <stdin>:2:");
    }
}
