package vramlab.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A class's entry that could not be scored (it hung, crashed, did not compile, or its steps are not
 * written) is unranked, as the README and its row say: no rank in the CSV, "-" on the page. It was
 * numbered on after the scored ones, so where no one had written chapter 8's steps yet the first id
 * in order was rank 1.
 */
class LeaderboardRanksTest {
    static Leaderboard.Entry entry(String id, double index) {
        return new Leaderboard.Entry(id, index, Double.isNaN(index) ? "TODO step 8.2 is not written yet" : "", List.of());
    }

    static Leaderboard board(List<Leaderboard.Entry> entries) {
        return new Leaderboard("the class", List.of(), "pytorch", List.of(), entries);
    }

    @Test
    @DisplayName("no one scored: every row unranked, in the CSV and on the page")
    void noneScored() throws Exception {
        Leaderboard b = board(List.of(entry("José", Double.NaN), entry("ana", Double.NaN)));
        StringBuilder csv = new StringBuilder();
        b.csv(csv);
        assertThat(csv.toString().split("\n")).containsExactly("rank,student,index,workloads_fit,workloads,note",
                ",José,,0,0,TODO step 8.2 is not written yet", ",ana,,0,0,TODO step 8.2 is not written yet");
        assertThat(b.html(3)).contains("<tr><td class=\"n\">-</td><td>José</td>").doesNotContain("<td class=\"n\">1</td>");
    }

    @Test
    @DisplayName("scored entries are ranked 1..k best first, the rest unranked after them (seeded classes)")
    void scoredThenUnranked() throws Exception {
        Random r = new Random(51);
        for (int round = 0; round < 200; round++) {
            List<Leaderboard.Entry> entries = new ArrayList<>();
            int n = 1 + r.nextInt(8);
            for (int i = 0; i < n; i++) entries.add(entry("s" + i, r.nextInt(3) == 0 ? Double.NaN : r.nextInt(5) * 10.0));
            Leaderboard b = board(entries);
            List<Integer> ranks = b.ranks();
            int k = 0;
            for (int i = 0; i < ranks.size(); i++) {
                Leaderboard.Entry e = b.ranked().get(i);
                if (e.scored()) assertThat(ranks.get(i)).as("round %d, %s", round, e).isEqualTo(++k);
                else assertThat(ranks.get(i)).as("round %d, %s", round, e).isNull();
            }
            assertThat(k).isEqualTo(entries.stream().filter(Leaderboard.Entry::scored).count());
            StringBuilder csv = new StringBuilder();
            b.csv(csv);
            String[] rows = csv.toString().split("\n");
            for (int i = 0; i < ranks.size(); i++) {
                assertThat(rows[i + 1]).startsWith((ranks.get(i) == null ? "" : ranks.get(i)) + "," + b.ranked().get(i).student() + ",");
            }
        }
    }
}
