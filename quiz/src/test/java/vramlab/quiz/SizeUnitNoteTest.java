package vramlab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.function.ToLongFunction;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A size answered in GB where the question meant powers of 1000 ("100 GB (100000000000 B)",
 * q7.1) is read as GiB, as the kit's size parser reads every unit: the mark says so, or the
 * student sees only "not the size" and cannot tell the unit from the reasoning.
 */
class SizeUnitNoteTest {
    /** The kit's reading (vramlab.units.Bytes.parse): K, M, G with or without B or iB, powers of 1024. */
    static final ToLongFunction<String> PARSE = a -> {
        String t = a.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) i++;
        long n = Long.parseLong(t.substring(0, i));
        return switch (t.substring(i).trim()) {
            case "", "b" -> n;
            case "k", "kb", "kib" -> n << 10;
            case "m", "mb", "mib" -> n << 20;
            case "g", "gb", "gib" -> n << 30;
            default -> throw new IllegalArgumentException("unknown unit");
        };
    };

    @Test
    @DisplayName("a wrong size written in GB says that GB reads as GiB here; one in GiB or bytes says only that it is wrong")
    void decimalUnitNoted() {
        Blank.Check check = new Blanks.SizeIs(100_000_000_000L, PARSE);
        assertThat(check.wrong("100000000000")).isNull();
        assertThat(check.wrong("100GB")).startsWith(Blanks.NOT_THE_SIZE).contains("GB reads as GiB");
        assertThat(check.wrong("100 mb")).contains("mb reads as MiB");
        assertThat(check.wrong("93GiB")).isEqualTo(Blanks.NOT_THE_SIZE);
        assertThat(check.wrong("99999")).isEqualTo(Blanks.NOT_THE_SIZE);
    }

    @Test
    @DisplayName("the note is the same for a practice sheet marked by its hashes (PracticeKey uses notTheSize)")
    void sameWordsForPractice() {
        assertThat(Blanks.notTheSize("100GB")).isEqualTo(new Blanks.SizeIs(1, PARSE).wrong("100GB"));
    }
}
