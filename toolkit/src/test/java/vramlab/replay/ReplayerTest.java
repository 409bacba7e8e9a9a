package vramlab.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static vramlab.units.Bytes.mib;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import vramlab.alloc.Block;
import vramlab.alloc.CachingAllocator;
import vramlab.alloc.CudaOutOfMemoryError;
import vramlab.driver.Gpu;
import vramlab.trace.TraceEvent;
import vramlab.trace.TraceException;
import vramlab.trace.TraceReader;

/**
 * The replayer's handle table (dense ids, two read paths) against the plain model it
 * replaced: a map of live handles to blocks and a set of handles whose alloc ended in OOM.
 */
@DisplayName("the replayer")
class ReplayerTest {

    /** The model: what each event did, as "step op handle result bytes", then any error. */
    static List<String> model(String text, String policy) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create(policy, ""));
        Map<String, Block> live = new HashMap<>();
        Set<String> failed = new HashSet<>();
        List<String> out = new ArrayList<>();
        long step = 0;
        TraceReader r = new TraceReader(new StringReader(text), "t");
        try {
            while (r.hasNext()) {
                TraceEvent e = r.next();
                step++;
                String h = e.handle();
                switch (e.op()) {
                    case ALLOC -> {
                        if (live.containsKey(h)) {
                            throw new TraceException("t", e.line(), "alloc of handle '" + h + "', which is still live");
                        }
                        failed.remove(h);
                        try {
                            live.put(h, a.alloc(e.size()));
                            out.add(step + " alloc " + h + " ok " + e.size());
                        } catch (CudaOutOfMemoryError oom) {
                            failed.add(h);
                            out.add(step + " alloc " + h + " oom " + e.size());
                        }
                    }
                    case FREE -> {
                        Block b = live.remove(h);
                        if (b != null) {
                            long bytes = b.requested();
                            a.free(b);
                            out.add(step + " free " + h + " ok " + bytes);
                        } else if (failed.remove(h)) {
                            out.add(step + " free " + h + " skipped 0");
                        } else {
                            throw new TraceException("t", e.line(), "free of unknown handle '" + h
                                    + "' (never allocated, or already freed)");
                        }
                    }
                    case EMPTY_CACHE -> out.add(step + " empty_cache  ok " + a.emptyCache());
                }
            }
        } catch (TraceException e) {
            out.add("error " + e.getMessage());
        }
        out.add("reserved " + a.reserved());
        return out;
    }

    static List<String> replayed(String text, String policy, boolean fastPath) {
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create(policy, ""));
        List<String> out = new ArrayList<>();
        Replayer.Listener l = (step, e, result, bytes, al) ->
                out.add(step + " " + e.op().word() + " " + e.handle() + " " + result.word() + " " + bytes);
        Replayer replayer = new Replayer(a, l, "t", true);
        TraceReader r = new TraceReader(new StringReader(text), "t");
        try {
            if (fastPath) replayer.replay(r); else replayer.replay((java.util.Iterator<TraceEvent>) r);
        } catch (TraceException e) {
            out.add("error " + e.getMessage());
        }
        out.add("reserved " + a.reserved());
        return out;
    }

    @ParameterizedTest(name = "policy {0}, seed {1}")
    @CsvSource({"toy, 1", "toy, 2", "toy, 3", "pytorch, 4", "pytorch, 5", "toy, 6", "toy, 7", "pytorch, 8"})
    @DisplayName("does what the map-and-set model does on seeded random traces, on both read paths")
    void againstTheModel(String policy, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        int handles = 20 + r.nextInt(60);
        boolean careful = seed % 3 != 0;              // mostly legal traces; some break somewhere
        Set<String> live = new HashSet<>();
        for (int i = 0; i < 600; i++) {
            String h = "h" + r.nextInt(handles);
            int op = r.nextInt(100);
            if (op < 2) {
                sb.append("empty_cache\n");
            } else if (op < 55) {
                if (careful && live.contains(h)) continue;
                live.add(h);
                sb.append("alloc ").append(h).append(' ').append(1 + r.nextInt(r.nextBoolean() ? 1 << 20 : 12 << 20))
                        .append('\n');
            } else {
                if (careful && !live.contains(h)) continue;
                live.remove(h);
                sb.append("free ").append(h).append('\n');
            }
        }
        String text = sb.toString();
        List<String> expected = model(text, policy);
        if (careful) assertThat(expected).as("the trace reaches an OOM").anyMatch(s -> s.contains(" oom "));
        else assertThat(expected).as("the trace breaks somewhere").anyMatch(s -> s.startsWith("error "));
        assertThat(replayed(text, policy, true)).as("fast path").isEqualTo(expected);
        assertThat(replayed(text, policy, false)).as("iterator path").isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    @DisplayName("a listener that reads no handles hears the same events with none named, OOMs too, and each"
            + " OOM's own call still names its handle")
    void listenerWithoutHandles() {
        String text = "alloc a 1MiB\nalloc b 80MiB\nfree b\nalloc c 2MiB\nfree a\nempty_cache\nfree c\n";
        List<String> heard = new ArrayList<>();
        List<String> ooms = new ArrayList<>();
        Replayer.Listener quiet = new Replayer.Listener() {
            @Override
            public void event(long step, TraceEvent e, Replayer.Result result, long bytes, CachingAllocator al) {
                heard.add(step + " " + e.op().word() + " " + e.handle() + " " + result.word() + " " + bytes);
            }

            @Override
            public void event(long step, TraceEvent.Op op, long line, String handle, long size,
                              Replayer.Result result, long bytes, CachingAllocator al) {
                if (op != TraceEvent.Op.EMPTY_CACHE) assertThat(handle).as("step %d", step).isNull();
                if (result == Replayer.Result.OOM) assertThat(ooms).as("oom() before its event").hasSize(1);
                heard.add(step + " " + op.word() + " ? " + result.word() + " " + bytes);
            }

            @Override
            public void oom(long step, TraceEvent e, CudaOutOfMemoryError error) { ooms.add(step + " " + e.handle()); }

            @Override
            public boolean readsHandles() { return false; }
        };
        CachingAllocator a = new CachingAllocator(new Gpu(mib(64)).openToyProcess(), Policies.create("toy", ""));
        new Replayer(a, quiet, "t", true).replay(new TraceReader(new StringReader(text), "t"));
        List<String> named = replayed(text, "toy", true);
        assertThat(ooms).containsExactly("2 b");
        assertThat(heard).hasSize(named.size() - 1);
        for (int i = 0; i < heard.size(); i++) {
            String[] w = named.get(i).split(" ", -1);             // step op handle result bytes
            String unnamed = w[0] + " " + w[1] + " ? " + w[3] + " " + w[4];
            assertThat(heard.get(i)).as("event %d", i + 1).isEqualTo(unnamed);
        }
    }
}
