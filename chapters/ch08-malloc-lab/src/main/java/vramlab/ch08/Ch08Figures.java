package vramlab.ch08;

import java.util.List;

import vramlab.contest.Entries;
import vramlab.judge.Scoreboard;
import vramlab.workload.Workloads;

/** The notes' and deck's figures as SVG strings, drawn from the contest at build time. */
public final class Ch08Figures {
    private Ch08Figures() {}

    /** Four served requests of Llama-2-7B on a 24 GiB card: what each entry holds from the driver over the run. */
    public static String figureContest() {
        return new Scoreboard(Entries.PYTORCH, Entries.all(), List.of(Workloads.llmServing(Workloads.PUBLIC_SEED, 4)))
                .chart(0);
    }
}
