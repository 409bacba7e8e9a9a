package vramlab.ch02.exercises;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import vramlab.ch02.CudaMallocChapter;
import vramlab.kit.Exercise;

/**
 * Each exercise's answer, checked against a model written here from the chapter's rules (large
 * requests round up to 2 MiB pages, small ones take 512 B slices of shared pages first fit, the
 * driver charges context plus pages, the VMM calls' documented preconditions), not from the
 * simulator's code.
 */
@DisplayName("Chapter 2's exercises")
class Ch02ExercisesTest {
    static final long MIB = 1L << 20, PAGE = 2 * MIB;

    /** First fit of 512 B slices into 2 MiB pages that never free: the pages each size opens. */
    static final class Packer {
        final List<Long> used = new ArrayList<>();

        /** The pages the request maps: 0 when it fits in a page already mapped. */
        long take(long size) {
            if (size > MIB) return (size + PAGE - 1) / PAGE;
            long bytes = (size + 511) / 512 * 512;
            for (int i = 0; i < used.size(); i++) {
                if (used.get(i) + bytes <= PAGE) {
                    used.set(i, used.get(i) + bytes);
                    return 0;
                }
            }
            used.add(bytes);
            return 1;
        }
    }

    @Test
    @DisplayName("the chapter lists price the loop, read the ledger, predict the codes, in that order")
    void registered() {
        List<Exercise> list = new CudaMallocChapter().exercises();
        assertThat(list).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("PriceTheLoop", "ReadTheLedger", "PredictTheCodes");
        for (Exercise e : list) {
            assertThat(e.prompt(5)).isEqualTo(e.prompt(5)).isNotEqualTo(e.prompt(6));
            assertThat(e.prompt(5)).doesNotContain("CUDA_SUCCESS  ", "used_gpu_memory [MiB]", " syncs x ");
        }
    }

    @Nested
    @DisplayName("Price the loop")
    class Price {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991})
        @DisplayName("calls, pages and time match a model of one page per 2 MiB and one shared page per step")
        void price(long seed) {
            PriceTheLoop.Loop l = PriceTheLoop.of(seed);
            Packer step = new Packer();
            long pagesPerStep = 0;
            for (long s : l.sizes()) pagesPerStep += step.take(s);
            long calls = 2L * l.steps() * l.sizes().size();
            long pages = 2L * l.steps() * pagesPerStep;
            long frees = (long) l.steps() * l.sizes().size();
            double micros = calls * 20.0 + pages * 1.0 + frees * 100.0;
            String answer = new PriceTheLoop().answer(seed);
            assertThat(answer).contains(String.format("(%d per step each way)", pagesPerStep));
            String money = micros >= 1000 ? String.format(java.util.Locale.ROOT, "%.2f ms", micros / 1000)
                    : String.format(java.util.Locale.ROOT, "%.1f us", micros);
            assertThat(answer).endsWith("= " + money);
        }
    }

    @Nested
    @DisplayName("Read the ledger")
    class Ledger {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991})
        @DisplayName("nvidia-smi is context plus mapped pages; free is the card less reserve, context and pages")
        void ledger(long seed) {
            ReadTheLedger.Case c = ReadTheLedger.of(seed);
            Packer packer = new Packer();
            long pages = 0;
            for (int i = 0; i < c.sizes().size(); i++) {
                long opened = packer.take(c.sizes().get(i));
                if (i != c.freed()) pages += opened;
            }
            long mapped = pages * PAGE;
            long smi = (c.context() + mapped) / MIB;
            long total = (ReadTheLedger.CARD - c.reserve()) / MIB;
            long free = total - smi;
            String answer = new ReadTheLedger().answer(seed);
            assertThat(answer).contains("1, python, " + smi + " MiB")
                    .endsWith("free " + free + " MiB of " + total + " MiB");
        }
    }

    @Nested
    @DisplayName("Predict the codes")
    class Codes {
        @ParameterizedTest(name = "seed {0}")
        @ValueSource(longs = {1, 2, 3, 7, 42, 2026, 99991, 5, 11, 13})
        @DisplayName("each code follows the VMM rules: aligned, inside, not over a mapping; whole mappings only")
        void codes(long seed) {
            TreeMap<Long, Long> mappings = new TreeMap<>();         // offset -> size
            List<String> expected = new ArrayList<>();
            for (PredictTheCodes.Call c : PredictTheCodes.calls(seed)) {
                long off = c.offset(), size = c.size(), end = off + size;
                String code = "CUDA_SUCCESS";
                switch (c.kind()) {
                    case MAP -> {
                        boolean overlaps = mappings.entrySet().stream()
                                .anyMatch(m -> m.getKey() < end && m.getKey() + m.getValue() > off);
                        if (off % PAGE != 0 || end > PredictTheCodes.RESERVATION) code = "CUDA_ERROR_INVALID_VALUE";
                        else if (overlaps) code = "CUDA_ERROR_ALREADY_MAPPED";
                        else mappings.put(off, size);
                    }
                    case SET_ACCESS -> {
                        boolean all = off % PAGE == 0;
                        for (long p = off; all && p < end; p += PAGE) {
                            long page = p;
                            all = mappings.entrySet().stream()
                                    .anyMatch(m -> m.getKey() <= page && page < m.getKey() + m.getValue());
                        }
                        if (!all) code = "CUDA_ERROR_INVALID_VALUE";
                    }
                    case UNMAP -> {
                        List<Long> whole = new ArrayList<>();
                        long at = off;
                        boolean ok = true;
                        while (ok && at < end) {
                            Long s = mappings.get(at);
                            if (s == null || at + s > end) ok = false;
                            else {
                                whole.add(at);
                                at += s;
                            }
                        }
                        if (!ok || whole.isEmpty()) code = "CUDA_ERROR_INVALID_VALUE";
                        else whole.forEach(mappings::remove);
                    }
                }
                expected.add(code);
            }
            String[] lines = new PredictTheCodes().answer(seed).split("\n");
            for (int i = 0; i < expected.size(); i++) {
                assertThat(lines[i]).as("call %d", i + 1).endsWith("-> " + expected.get(i));
            }
            StringBuilder end = new StringBuilder("mapped at the end:");
            for (long p = 0; p < PredictTheCodes.RESERVATION; p += PAGE) {
                long page = p;
                if (mappings.entrySet().stream().anyMatch(m -> m.getKey() <= page && page < m.getKey() + m.getValue())) {
                    end.append(" +").append(p >> 20).append(" MiB");
                }
            }
            if (mappings.isEmpty()) end.append(" nothing");
            assertThat(lines[lines.length - 1]).isEqualTo(end.toString());
        }
    }
}
