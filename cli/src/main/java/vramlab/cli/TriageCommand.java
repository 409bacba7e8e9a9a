package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import vramlab.triage.Diagnosis;
import vramlab.triage.Triage;

/** {@code vramlab triage [--json] [FILE|-]}: names the likely cause of a pasted OOM message. */
final class TriageCommand implements Command {
    @Override public String name() { return "triage"; }
    @Override public String summary() { return "read a pasted OOM message: numbers, cause, fixes"; }

    @Override
    public String usage() {
        return """
                usage: vramlab triage [--json] [FILE | -]

                  FILE     a file holding the error message as you copied it (log prefixes,
                           wrapped lines, Python reprs and several ranks are fine); - or no FILE
                           reads standard input (end it with Ctrl-D)
                  --json   print one JSON object: cause, numbers (bytes), evidence, fixes, ...

                The cause is one of FRAGMENTATION, OTHER_PROCESSES, NCCL_BUFFERS, CUDA_GRAPH_POOLS,
                CUDNN_WORKSPACE, FULL_OR_DRIVER_RESERVE (the ladder's order), or NOT_PYTORCH_OOM for
                a message from TensorFlow, JAX, ROCm, MPS, the CPU allocator or cuBLAS. A message
                that is cut or mangled gives what could be read and names what was missing.
                """;
    }

    @Override
    public int run(List<String> args, Io io) throws IOException {
        Args a = Args.parse("triage", args, Set.of("--json"), Set.of());
        if (a.positional().size() > 1) {
            throw new UsageException("triage", "expected at most one FILE (or -)");
        }
        String file = a.positional().isEmpty() ? "-" : a.positional().get(0);
        Diagnosis d = Triage.of(read(file, io.in()));
        io.out().println(a.flag("--json") ? d.json() : d.text());
        io.out().flush();
        return 0;
    }

    private static String read(String file, InputStream in) throws IOException {
        if (file.equals("-")) return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        try {
            byte[] bytes = Files.readAllBytes(Path.of(file));
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException(file, "no such file");
        }
    }
}
