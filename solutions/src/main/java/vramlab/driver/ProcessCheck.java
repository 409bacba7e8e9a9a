package vramlab.driver;

import static vramlab.driver.GpuProcess.hex;

import java.util.HashMap;
import java.util.Map;

import vramlab.gmmu.Aperture;
import vramlab.gmmu.PhysicalPool;

/**
 * One concept: {@link GpuProcess#checkInvariants()}, the books of one process's context held
 * against its page tables. Every PTE points at memory owned exactly once: a local PTE at a chunk
 * of this GPU's pool owned by one of this process's allocations, shared pages or handles; a peer
 * PTE, with the link's aperture and less the link's offset, at a chunk of the peer's pool owned
 * by one of the peer context's. Each shared page's slices and free runs tile it; the byte counts
 * agree; and the VA window holds exactly the allocations, shared pages and reservations.
 *
 * <p>The pool it reads models RM's physical memory allocator (NVIDIA/open-gpu-kernel-modules
 * 595.45.04, src/nvidia/src/kernel/gpu/mem_mgr/phys_mem_allocator/phys_mem_allocator.c), where a
 * frame is free or allocated; that each allocated frame has exactly one owner among the
 * process's allocations is the kit's bookkeeping, and the checker is the kit's own, with no
 * driver counterpart. It throws on the first disagreement, naming the process, the address and
 * what it found.
 */
final class ProcessCheck {
    private final GpuProcess p;

    ProcessCheck(GpuProcess p) { this.p = p; }

    /** @return the number of pool chunks the process owns on its GPU */
    int run() {
        p.addressSpace().checkInvariants();
        p.window().checkInvariants();
        Map<Object, Integer> seen = ptesByOwner();
        long sumMapped = 0;
        long sumVa = 0;
        int chunks = p.contextChunk >= 0 ? 1 : 0;
        Map<SharedPages.Page, Long> sliced = new HashMap<>();
        for (GpuProcess.Allocation a : p.allocations()) {
            if (a.page != null) {
                if (!p.shared().isLive(a.page)) fail("slice " + hex(a.va) + " outside a live page");
                sliced.merge(a.page, a.size, Long::sum);
                continue;
            }
            sumMapped += a.size;
            sumVa += a.size;
            chunks += a.chunks.length;
            if (seen.getOrDefault(a, 0) != a.chunks.length) {
                fail("allocation " + hex(a.va) + " has " + a.chunks.length + " frames but "
                        + seen.getOrDefault(a, 0) + " PTEs");
            }
        }
        for (SharedPages.Page page : p.shared().all()) {
            long used = sliced.getOrDefault(page, 0L);
            if (page.live <= 0 || used + page.freeBytes() != Gpu.PAGE || seen.getOrDefault(page, 0) != 1) {
                fail("shared page " + hex(page.va) + " holds " + page.live + " slices of " + used
                        + " B and " + page.freeBytes() + " B free runs");
            }
            sumMapped += Gpu.PAGE;
            sumVa += Gpu.PAGE;
            chunks++;
        }
        long sumHandles = 0;
        for (Vmm.Handle h : p.vmm().handles()) {
            sumHandles += h.size;
            chunks += h.chunks.length;
            if (h.released && h.maps == 0) throw new IllegalStateException("handle " + h.id + " leaked");
        }
        sumVa += p.vmm().reservedBytes();
        long mapped = p.mappedBytes() - p.vmm().handlesBytes();
        if (sumMapped != mapped || sumHandles != p.vmm().handlesBytes() || sumVa != p.window().takenBytes()) {
            fail("books say " + mapped + " + " + p.vmm().handlesBytes() + " B, allocations sum to "
                    + sumMapped + " + " + sumHandles + "; VA taken " + p.window().takenBytes()
                    + " B, expected " + sumVa);
        }
        return chunks;
    }

    /**
     * Walks every PTE to the pool chunk behind it; counts, per owner, the PTEs that reach it. An
     * allocation's PTEs come one after another in the walk, so an owner already found live in
     * its process is not looked up again for the next PTE (only its range is checked), and each
     * run of PTEs of one owner is counted in one step.
     */
    private Map<Object, Integer> ptesByOwner() {
        Map<Object, Integer> seen = new HashMap<>();
        Gpu gpu = p.gpu();
        Object[] run = {null, null};                 // {the owner of the PTEs just seen, its process}
        int[] runLength = {0};
        p.addressSpace().forEachPte((at, pte) -> {
            boolean local = pte.device() == gpu.id();
            GpuProcess owner = local ? p : p.peerAccess().on(pte.device());
            PeerLink link = local || owner == null ? null : gpu.linkTo(owner.gpu());
            Aperture expected = local ? Aperture.VIDEO_MEMORY : link == null ? null : link.aperture();
            long address = local || link == null ? pte.address() : pte.address() - link.offset(owner.gpu());
            PhysicalPool.Chunk c = owner == null ? null : owner.gpu().pool().chunkAt(address);
            boolean sameRun = c != null && c.owner() == run[0] && owner == run[1];
            if (c == null || pte.aperture() != expected || !(sameRun ? backs(c.owner(), at) : owns(owner, c.owner(), at))) {
                fail(hex(at) + " -> " + pte + " points at " + c + ", not at memory of " + owner);
            }
            if (!sameRun) {
                if (run[0] != null) seen.merge(run[0], runLength[0], Integer::sum);
                run[0] = c.owner();
                run[1] = owner;
                runLength[0] = 0;
            }
            runLength[0]++;
        });
        if (run[0] != null) seen.merge(run[0], runLength[0], Integer::sum);
        return seen;
    }

    /** Whether {@code chunkOwner} is {@code q}'s allocation, shared page or handle whose memory may back {@code at}. */
    private static boolean owns(GpuProcess q, Object chunkOwner, long at) {
        if (chunkOwner instanceof GpuProcess.Allocation a) return q.allocation(a.va) == a && backs(a, at);
        if (chunkOwner instanceof SharedPages.Page page) return q.shared().isLive(page) && backs(page, at);
        if (chunkOwner instanceof Vmm.Handle h) return q.vmm().isLive(h);
        return false;
    }

    /** Whether {@code at} lies where {@code chunkOwner}, known live, may be mapped: in its range (a handle: anywhere). */
    private static boolean backs(Object chunkOwner, long at) {
        if (chunkOwner instanceof GpuProcess.Allocation a) return at >= a.va && at < a.va + a.size;
        if (chunkOwner instanceof SharedPages.Page page) return at >= page.va && at < page.va + Gpu.PAGE;
        return chunkOwner instanceof Vmm.Handle;
    }

    private void fail(String what) {
        throw new IllegalStateException("process " + p.pid() + ": " + what);
    }
}
