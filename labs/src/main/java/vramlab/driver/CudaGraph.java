package vramlab.driver;

import java.util.ArrayList;
import java.util.List;

/**
 * A captured CUDA graph: the nodes recorded during stream capture, each with the buffers (and
 * so the addresses) baked in. Every replay runs the same nodes on the same addresses; that is
 * why a buffer a graph touches must stay alive, at that address, as long as the graph lives.
 */
public final class CudaGraph {
    /** A copy node ({@code dst}, {@code src}, {@code bytes}) or a kernel node ({@code nanos}). */
    public record Node(String label, Buffer dst, Buffer src, long bytes, long nanos) {
        public boolean isCopy() { return src != null; }
    }

    private final List<Node> nodes;
    private int replays;

    CudaGraph(List<Node> nodes) { this.nodes = List.copyOf(nodes); }

    public List<Node> nodes() { return nodes; }

    /** {@code CUDA graph: 2 nodes (1 copy), replayed 3 times}. */
    @Override
    public String toString() {
        long copies = nodes.stream().filter(Node::isCopy).count();
        return "CUDA graph: " + nodes.size() + " nodes (" + copies + (copies == 1 ? " copy" : " copies")
                + "), replayed " + replays + (replays == 1 ? " time" : " times");
    }
    public int replays() { return replays; }

    /** {@code cudaGraphLaunch}: enqueues every node, in order, on {@code stream}. */
    public long replay(Stream stream) {
        if (stream.capturing()) throw new IllegalStateException("replay on capturing " + stream.name());
        long end = stream.tail();
        for (Node n : nodes) end = stream.run(n);
        replays++;
        return end;
    }

    /** Every address the graph's copies read or write, in node order. */
    public List<Long> addresses() {
        List<Long> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.isCopy()) { out.add(n.dst().address()); out.add(n.src().address()); }
        }
        return out;
    }
}
