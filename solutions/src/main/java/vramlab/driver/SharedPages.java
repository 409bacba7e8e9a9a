package vramlab.driver;

import java.util.Map;
import java.util.TreeMap;

import vramlab.units.Bytes;

/**
 * One concept: how a process packs its small {@code cudaMalloc}s (up to
 * {@link GpuProcess#SMALL_MAX}) side by side into shared 2 MiB pages, each mapped by one 2M PTE,
 * instead of giving each request a page of its own.
 *
 * <p>What it models is {@code cudaMalloc} as the CUDA Runtime API documents it (Memory
 * Management, cudaMalloc: "allocates size bytes of linear memory on the device"), whose packing
 * of small requests the documentation leaves out: the rules here are observed, not documented
 * (the sizes in {@link GpuProcess#SMALL_MAX} and {@link GpuProcess#SMALL_ALIGN} say where they
 * were measured). The driver's own allocator is closed source; the kit's choices are labelled:
 * first fit over the pages in address order, and a page given back when its last slice goes.
 *
 * <p>Invariants (checked by {@link ProcessCheck}): every page holds at least one live slice, and
 * its live slices and free runs tile it.
 */
final class SharedPages {
    /**
     * A 2 MiB page, mapped by one 2M PTE, that holds small cudaMallocs side by side: first fit
     * over its free runs, which merge again on free. The kit gives the page back when its last
     * allocation goes; when the real driver does is not documented.
     */
    static final class Page {
        final long va;
        long[] chunks;
        final TreeMap<Long, Long> free = new TreeMap<>();        // offset -> length
        int live;

        Page(long va) {
            this.va = va;
            free.put(0L, Gpu.PAGE);
        }

        /** The offset of a free run of {@code bytes}, now taken; -1 when none is long enough. */
        long take(long bytes) {
            for (Map.Entry<Long, Long> run : free.entrySet()) {
                long off = run.getKey();
                long length = run.getValue();      // read before the remove: TreeMap may reuse the entry
                if (length < bytes) continue;
                free.remove(off);
                if (length > bytes) free.put(off + bytes, length - bytes);
                live++;
                return off;
            }
            return -1;
        }

        /** Gives {@code bytes} at {@code off} back, merged with the free runs on either side. */
        void give(long off, long bytes) {
            Map.Entry<Long, Long> before = free.floorEntry(off);
            if (before != null && before.getKey() + before.getValue() == off) {
                off = before.getKey();
                bytes += before.getValue();
            }
            Long after = free.remove(off + bytes);
            free.put(off, after == null ? bytes : bytes + after);
            live--;
        }

        long freeBytes() {
            long sum = 0;
            for (long len : free.values()) sum += len;
            return sum;
        }
    }

    private final GpuProcess process;
    private final TreeMap<Long, Page> pages = new TreeMap<>();           // va -> page

    SharedPages(GpuProcess process) { this.process = process; }

    /** How many shared pages are mapped now. */
    int count() { return pages.size(); }

    /** The pages, in address order. */
    Iterable<Page> all() { return pages.values(); }

    /** Whether {@code page} is one of the pages mapped now. */
    boolean isLive(Page page) { return pages.get(page.va) == page; }

    // tag::packed[]
    /** A small request: a slice of the first shared page with room, or of a new one. */
    long packed(long size) {
        long bytes = Bytes.alignUp(size, GpuProcess.SMALL_ALIGN);
        for (Page page : pages.values()) {
            long off = page.take(bytes);
            if (off >= 0) return process.slice(page, off, bytes, 0);
        }
        Page page = newPage(size);
        return process.slice(page, page.take(bytes), bytes, 1);
    }
    // end::packed[]

    /** A new shared page, for {@code cudaMalloc(size)}. */
    private Page newPage(long size) {
        Page page = new Page(process.takeVa(Gpu.PAGE, "cudaMalloc", size));
        try {
            page.chunks = process.gpu().takePages(Gpu.PAGE, page, "cudaMalloc", size);
        } catch (CudaException e) {
            process.window().cancel(page.va);
            throw e;
        }
        process.mapEverywhere(page.va, page.chunks);
        pages.put(page.va, page);
        return page;
    }

    /**
     * Gives the slice {@code [va, va + bytes)} back to {@code page}, and the page to the driver
     * when that was its last slice.
     *
     * @return the pages unmapped: 1 when the page went, else 0
     */
    long give(Page page, long va, long bytes) {
        page.give(va - page.va, bytes);
        if (page.live > 0) return 0;
        process.unmapEverywhere(page.va, Gpu.PAGE);
        pages.remove(page.va);
        process.gpu().givePages(page.chunks);
        page.chunks = null;                              // the GPU reuses the array
        process.window().release(page.va);
        return 1;
    }
}
