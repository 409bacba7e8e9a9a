package vramlab.cli;

import java.util.List;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;

/** {@code vramlab lab <chapter>}: runs a chapter's lab scenarios. */
final class LabCommand implements Command {
    @Override public String name() { return "lab"; }
    @Override public String summary() { return "run a chapter's lab scenarios and print their output"; }

    @Override
    public String usage() {
        StringBuilder sb = new StringBuilder("usage: vramlab lab <chapter>\n\nchapters:\n");
        for (ChapterLab c : Chapters.all()) sb.append(String.format("  %-26s %s%n", c.id(), c.title()));
        return sb.toString();
    }

    @Override
    public int run(List<String> args, Io io) {
        if (args.size() != 1) throw new UsageException("lab", "expected one chapter, e.g. vramlab lab real-oom");
        ChapterLab c = find(args.get(0), "lab");
        c.run(io.out());
        return 0;
    }

    static ChapterLab find(String name, String command) {
        try {
            return Chapters.find(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(command, e.getMessage());
        }
    }
}
