package vramlab.alloc;

import java.util.ArrayList;
import java.util.List;

import vramlab.units.Bytes;

/**
 * The toy policy written as plainly as possible, for comparison: lists scanned from end to
 * end, no sets, no links. Slow and obviously right is the point.
 */
final class ToyReferenceModel {
    static final long MiB = Bytes.MiB;

    static final class Blk {
        final int seg;
        long off, size, req;
        boolean live;

        Blk(int seg, long off, long size) { this.seg = seg; this.off = off; this.size = size; }

        String describe() { return "seg" + seg + "@" + off + "+" + size + (live ? " LIVE" : " FREE"); }
    }

    static final class Seg {
        final int id;
        final long size;
        final boolean small;
        final List<Blk> blocks = new ArrayList<>();   // kept in offset order

        Seg(int id, long size, boolean small) { this.id = id; this.size = size; this.small = small; }
    }

    final long device;
    final List<Seg> segs = new ArrayList<>();
    int nextId;
    long requested, allocated, reserved;

    ToyReferenceModel(long device) { this.device = device; }

    static long round(long n) {
        return n <= MiB ? (n + 511) / 512 * 512 : (n + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
    }

    /** Returns the block, or null for OOM. */
    Blk alloc(long n) {
        long want = round(n);
        boolean small = want <= MiB;
        Blk best = null;
        for (Seg s : segs) {
            if (s.small != small) continue;
            for (Blk b : s.blocks) {
                if (b.live || b.size < want) continue;
                if (best == null || b.size < best.size
                        || (b.size == best.size && (b.seg < best.seg || (b.seg == best.seg && b.off < best.off)))) {
                    best = b;
                }
            }
        }
        if (best == null) {
            long segSize = small ? 2 * MiB : Math.max(20 * MiB, want);
            long pages = (segSize + 2 * MiB - 1) / (2 * MiB) * (2 * MiB);
            if (reserved + pages > device) return null;
            Seg s = new Seg(nextId++, segSize, small);
            s.blocks.add(new Blk(s.id, 0, segSize));
            segs.add(s);
            reserved += segSize;
            best = s.blocks.get(0);
        }
        long rem = best.size - want;
        if (rem >= (small ? 512 : 2 * MiB)) {
            Seg s = seg(best.seg);
            Blk tail = new Blk(best.seg, best.off + want, rem);
            s.blocks.add(s.blocks.indexOf(best) + 1, tail);
            best.size = want;
        }
        best.live = true;
        best.req = n;
        requested += n;
        allocated += best.size;
        return best;
    }

    void free(Blk b) {
        b.live = false;
        requested -= b.req;
        allocated -= b.size;
        b.req = 0;
        Seg s = seg(b.seg);
        for (int i = 0; i + 1 < s.blocks.size(); ) {             // merge any free neighbours
            Blk x = s.blocks.get(i), y = s.blocks.get(i + 1);
            if (!x.live && !y.live) {
                x.size += y.size;
                s.blocks.remove(i + 1);
            } else {
                i++;
            }
        }
    }

    long emptyCache() {
        long rel = 0;
        for (var it = segs.iterator(); it.hasNext(); ) {
            Seg s = it.next();
            if (s.blocks.size() == 1 && !s.blocks.get(0).live) {
                rel += s.size;
                it.remove();
            }
        }
        reserved -= rel;
        return rel;
    }

    Seg seg(int id) {
        for (Seg s : segs) if (s.id == id) return s;
        throw new IllegalStateException("no segment " + id);
    }

    /** The layout as text, comparable with the real allocator's. */
    String layout() {
        StringBuilder sb = new StringBuilder();
        for (Seg s : segs) {
            sb.append(s.id).append(':');
            for (Blk b : s.blocks) sb.append(' ').append(b.describe());
            sb.append('\n');
        }
        return sb.toString();
    }
}
