package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadTest {

    @Nested
    @DisplayName("the workload generator")
    class Generator {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 99})
        @DisplayName("gives the same requests for the same seed, and different ones for another")
        void deterministic(long seed) {
            assertThat(Workload.chat(seed).generate()).isEqualTo(Workload.chat(seed).generate());
            assertThat(Workload.chat(seed).generate()).isNotEqualTo(Workload.chat(seed + 1).generate());
        }

        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {5, 6})
        @DisplayName("draws lengths inside their ranges and arrivals in order at about the asked rate")
        void shape(long seed) {
            Workload w = new Workload(seed, 4000, 0.25, LengthDist.uniform(32, 1024),
                    LengthDist.logUniform(8, 512), 16);
            List<Request> rs = w.generate();
            assertThat(rs).allSatisfy(r -> {
                assertThat(r.prompt()).isBetween(32L, 1024L);
                assertThat(r.output()).isBetween(8L, 512L);
            });
            for (int i = 1; i < rs.size(); i++) assertThat(rs.get(i).arrival()).isGreaterThanOrEqualTo(rs.get(i - 1).arrival());
            double rate = rs.size() / (double) (rs.get(rs.size() - 1).arrival() + 1);
            assertThat(rate).isBetween(0.225, 0.275);
            double meanPrompt = rs.stream().mapToLong(Request::prompt).average().orElseThrow();
            assertThat(meanPrompt).isBetween(528 - 15.0, 528 + 15.0);          // (32 + 1024) / 2
            long shortOutputs = rs.stream().filter(r -> r.output() < 64).count();  // log-uniform: 3 of 6 doublings
            assertThat(shortOutputs / (double) rs.size()).isBetween(0.45, 0.55);
        }

        @Test
        @DisplayName("refuses empty ranges and empty workloads, naming the values")
        void badInput() {
            assertThatThrownBy(() -> LengthDist.uniform(10, 5)).hasMessageContaining("10..5");
            assertThatThrownBy(() -> new Workload(1, 0, 1, LengthDist.fixed(1), LengthDist.fixed(1), 1))
                    .hasMessageContaining("requests > 0");
        }
    }

    @Nested
    @DisplayName("model shapes")
    class Shapes {
        @ParameterizedTest(name = "{0}: {1} bytes per token")
        @CsvSource(textBlock = """
                OPT-13B,     819200
                Llama-2-7B,  524288
                Llama-3-8B,  131072
                Llama-2-70B, 327680
                """)
        @DisplayName("KV bytes per token are 2 x layers x KV heads x head dim x dtype bytes")
        void bytesPerToken(String name, long bytes) {
            assertThat(ModelShape.preset(name).kvBytesPerToken()).isEqualTo(bytes);
        }

        @Test
        @DisplayName("OPT-13B gives the paper's 800 KB per token and 1.6 GB for 2048 tokens")
        void paperFigures() {
            long perToken = ModelShape.OPT_13B.kvBytesPerToken();
            assertThat(perToken / 1024).isEqualTo(800);
            assertThat(perToken * 2048 / 1e9).isBetween(1.6, 1.7);
        }

        @Test
        @DisplayName("an unknown preset is refused with the known names")
        void unknown() {
            assertThatThrownBy(() -> ModelShape.preset("gpt-5")).hasMessageContaining("gpt-5")
                    .hasMessageContaining("Llama-3-8B");
        }
    }
}
