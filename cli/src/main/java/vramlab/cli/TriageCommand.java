package vramlab.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import vramlab.replay.WhoHolds;
import vramlab.snapshot.Snapshot;
import vramlab.snapshot.SnapshotFile;
import vramlab.snapshot.SnapshotInput;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;
import vramlab.triage.Diagnosis;
import vramlab.triage.Json;
import vramlab.triage.OomMoment;
import vramlab.triage.SnapshotTriage;
import vramlab.triage.Triage;

/**
 * {@code vramlab triage [--json] [--device SIZE] [FILE|-]}: names the cause of a pasted OOM
 * message, or of the OOM a memory snapshot recorded.
 */
@CommandLine.Command(name = "triage", mixinStandardHelpOptions = true,
        header = "read a pasted OOM message: numbers, cause, fixes",
        description = """
                Each cause is weighed by how much of the shortfall (requested minus free) it
                explains; the one named is the cause whose removal alone makes the request fit,
                with the runner-up and the command that tells the two apart.""",
        footer = """

                The cause is one of FRAGMENTATION, OTHER_PROCESSES, NCCL_BUFFERS, OUTSIDE_ALLOCATOR,
                CUDA_GRAPH_POOLS, CUDNN_WORKSPACE, FULL_OR_DRIVER_RESERVE (the ladder's order; under
                it, a finding: MEMORY_FRACTION, ROOM_ON_CARD or FREE_BARELY_COVERS, when the card
                was not short), CANNOT_TELL for a text with no figure to weigh (none, or the
                request alone) and no words naming a subsystem (then: what to collect next), or
                NOT_PYTORCH_OOM for a message from TensorFlow, JAX, OpenACC, Lua Torch7, MPS, the
                CPU allocator or cuBLAS, or a raw HIP error. PyTorch on ROCm ("HIP out of memory")
                is the same allocator and is read like CUDA; its fixes say which variable a ROCm
                build reads. A message that is cut or mangled gives what could be read and names
                what was missing; figures written with a decimal comma (1,96 GiB), or grouped with
                points as a German locale prints them (1.024,00 MiB), are read as decimals when the
                message has no decimal point, and the report says so; 1,024 MiB is left unread (a
                thousands separator or a decimal comma: the kit does not guess).""")
final class TriageCommand implements Command {
    @Option(names = "--json", description = """
            print one JSON object: cause, numbers (bytes), evidence, fixes, the shortfall, \
            every cause ranked by the share of it that it explains, and the finding (or null)""")
    boolean json;

    @Option(names = "--device", paramLabel = "SIZE", converter = SizeConverter.Card.class, description = """
            for a snapshot, which does not record the card. With an oom entry: the card's total as \
            CUDA reports it (torch.cuda.mem_get_info()[1], the 'total capacity' of PyTorch's OOM \
            message), against which the ladder weighs what is neither free nor PyTorch's; not \
            PyTorch's share that replay's and advise's --device take (a value no more than reserved \
            plus free at the OOM is said to look like that share). Without an oom entry: the memory \
            PyTorch may have in the replay of what would fail first, as replay's --device (its \
            share: the total less the context)""")
    Long device;

    @CommandLine.Mixin
    InputLimitOption input = new InputLimitOption();

    @Parameters(paramLabel = "FILE", arity = "0..1", description = """
            a file holding the error message as you copied it (log prefixes, wrapped lines, \
            Python reprs and several ranks are fine), or a PyTorch memory snapshot whose trace \
            recorded the OOM (read to the byte; without an oom entry, its peak and, with --device, \
            what would fail first on that card); - or no FILE reads standard input (end it with \
            Ctrl-D)""")
    String file = "-";

    /**
     * Whether a person types at this command: standard input and output are a terminal (in Java
     * 17, {@code System.console()} is there only then). A field so that a test can be that person.
     */
    BooleanSupplier terminal = () -> System.console() != null;

    /**
     * In a student's release (set by {@link Main}): how a snapshot is read, in a child JVM on the
     * student's cores, compiled first ({@link Main#ON_THE_CORES}), given the input on its standard
     * input; null elsewhere. A pasted message needs none of the student's cores (the triage
     * reads text): it is read here, and nothing is compiled for it.
     */
    Command snapshotsOnYourCores;

    @Override
    public int run(Io io) throws Exception {
        if (file.equals("-") && terminal.getAsBoolean()) {
            // README's "Paste a real PyTorch OOM message into ./vramlab triage": typed at a terminal,
            // it waited in silence for the end of the input, and nothing said how to end it.
            io.err().println(PASTE_HINT);
            io.err().flush();
        }
        String name = TraceReader.nameOf(file);          // <stdin> for -, in errors and output
        byte[] bytes = read(file, io.in(), input.limit());
        Diagnosis d;
        if (snapshotsOnYourCores != null && SnapshotFile.looksLikeSnapshot(bytes)) {
            // Read already: from standard input it is gone, so the child reads these bytes instead.
            return snapshotsOnYourCores.run(file.equals("-") ? new Io(new ByteArrayInputStream(bytes), io.out(), io.err()) : io);
        }
        if (SnapshotFile.looksLikeSnapshot(bytes)) {
            Map<?, ?> dict = SnapshotFile.dict(bytes, name);
            Snapshot s = SnapshotFile.read(bytes, name);
            long card = device == null ? -1 : device;
            List<OomMoment> ooms = OomMoment.all(dict, name);
            if (ooms.isEmpty()) {
                SnapshotTriage.Peak p = SnapshotTriage.peak(s, name, card);
                io.out().println(json ? Json.write(p.map()) : p.text());
                io.out().flush();
                return 0;
            }
            d = SnapshotTriage.of(dict, name, card);
            WhoHolds holds = SnapshotTriage.atOom(s, ooms.get(0));
            if (json) {
                @SuppressWarnings("unchecked")
                Map<String, Object> o = new com.fasterxml.jackson.databind.ObjectMapper().readValue(d.json(), Map.class);
                o.put("whoHolds", holds == null ? null : holds.map());
                io.out().println(Json.write(o));
            } else {
                io.out().println(d.text() + (holds == null ? "" : "\n" + holds.text(10, false)
                        + "  (every site with its stack: ./vramlab replay --at oom --stacks " + file + ")\n"));
            }
            io.out().flush();
            return 0;
        } else {
            if (device != null) {
                throw new UsageException("triage", "--device applies to a snapshot, not to a message");
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            if (text.isBlank()) throw nothingToRead(name, bytes.length);
            d = Triage.of(text);
        }
        io.out().println(json ? d.json() : d.text());
        io.out().flush();
        return 0;
    }

    /** What a person at a terminal reads before pasting (standard error: the report stays as it was). */
    static final String PASTE_HINT = "vramlab triage: paste the OOM message, then press Ctrl-D on a new line"
            + " (Windows: Ctrl-Z, then Enter); or give the file that holds it: ./vramlab triage oom.txt";

    /**
     * An empty paste (an empty file, Ctrl-D at once, a pipe that carried nothing) is a mistake
     * to name, not a message to diagnose: it was reported as NOT_PYTORCH_OOM, "look up the memory
     * settings of the framework or library that printed this one", of a text nobody printed.
     */
    private static TraceException nothingToRead(String name, int length) {
        return new TraceException(name, 0, (length == 0 ? "empty" : "only blank space")
                + ": expected the text of an out-of-memory error as PyTorch printed it (paste it, or"
                + " give the file that holds it)");
    }

    private static byte[] read(String file, InputStream in, long limit) {
        if (file.equals("-")) return SnapshotInput.readAll(in, TraceReader.STANDARD_INPUT, limit);   // capped, unzipped
        return SnapshotInput.readFile(file, limit);           // or one line: no such file, cannot read it
    }
}
