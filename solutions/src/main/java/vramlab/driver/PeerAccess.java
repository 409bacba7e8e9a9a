package vramlab.driver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import vramlab.gmmu.Access;
import vramlab.gmmu.PageSize;
import vramlab.gmmu.Pte;

/**
 * One concept: peer access between one process's contexts on two GPUs. Once
 * {@code cudaDeviceEnablePeerAccess} is called (CUDA Runtime API, Peer Device Memory Access),
 * this context's page tables map every cudaMalloc of the peer context, and keep mapping the ones
 * it makes later, so a walk here can end in the peer's memory.
 *
 * <p>What a peer PTE holds is UVM's rule (NVIDIA/open-gpu-kernel-modules 595.45.04,
 * kernel-open/nvidia-uvm/uvm_gpu.c: {@code parent_gpu_peer_aperture} and
 * {@code uvm_gpu_peer_phys_address}), as {@link PeerLink} has it per kind of link. The kit maps
 * cudaMalloc'd memory only, not cuMemCreate handles (those get their peers through
 * {@code cuMemSetAccess}, which the kit grants on the own device only).
 */
final class PeerAccess {
    private final GpuProcess owner;
    private final Map<Integer, GpuProcess> peers = new LinkedHashMap<>();      // GPU id -> context
    private final List<GpuProcess> mirrors = new ArrayList<>();               // who maps my mallocs

    PeerAccess(GpuProcess owner) { this.owner = owner; }

    /** The peer context on GPU {@code device} whose memory this context maps, or null. */
    GpuProcess on(int device) { return peers.get(device); }

    Collection<GpuProcess> peers() { return peers.values(); }

    // tag::peer[]
    /**
     * {@code cudaDeviceEnablePeerAccess}: from now on this context maps every cudaMalloc of
     * {@code peer} (the same process's context on another GPU), so a walk here ends in the
     * peer's memory. The PTEs are the link's ({@link PeerLink}): PEER-aperture PTEs over PCIe,
     * NVLink and NVSwitch, the last two at the owner's window offset; system-aperture PTEs
     * through the owner's BAR1.
     */
    void enable(GpuProcess peer) {
        Gpu gpu = owner.gpu();
        if (peer.gpu() == gpu || peer.pid() != owner.pid() || peer.closed) {
            throw new CudaException(CudaError.cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess: GPU "
                    + peer.gpu().id() + " is not another device of process " + owner.pid());
        }
        if (peers.containsKey(peer.gpu().id())) {
            throw new CudaException(CudaError.cudaErrorPeerAccessAlreadyEnabled,
                    "cudaDeviceEnablePeerAccess: GPU " + gpu.id() + " -> GPU " + peer.gpu().id());
        }
        if (gpu.linkTo(peer.gpu()).usesPeerSlot()) gpu.peerSlot(peer.gpu());
        peers.put(peer.gpu().id(), peer);
        peer.peerAccess().mirrors.add(owner);
        peer.forEachMalloc((at, chunks) -> mapPeer(peer, at, chunks));
    }
    // end::peer[]

    /**
     * Maps {@code chunks}, just mapped at {@code at} by the owner, in every context that mirrors
     * it. With no mirrors (every single-GPU run) it returns before a loop makes its iterator:
     * it runs on every cudaMalloc of a page.
     */
    void mirror(long at, long[] chunks) {
        if (mirrors.isEmpty()) return;
        for (GpuProcess m : mirrors) m.peerAccess().mapPeer(owner, at, chunks);
    }

    /** Unmaps the owner's {@code [at, at + size)} from every context that mirrors it. */
    void unmirror(long at, long size) {
        if (mirrors.isEmpty()) return;                  // as mirror: no iterator for nothing
        for (GpuProcess m : mirrors) m.unmapPages(at, size);
    }

    /** At exit: no peer maps my memory any more, and I map no peer's. */
    void dropAll() {
        for (GpuProcess m : new ArrayList<>(mirrors)) m.peerAccess().drop(owner);
        for (GpuProcess p : new ArrayList<>(peers.values())) drop(p);
    }

    /** Maps {@code peer}'s frames at {@code at} here, as the link between the two GPUs has it. */
    private void mapPeer(GpuProcess peer, long at, long[] chunks) {
        for (int k = 0; k < chunks.length; k++) {
            owner.addressSpace().map(at + k * Gpu.PAGE, peerPte(peer, chunks[k]));
        }
    }

    private Pte peerPte(GpuProcess peer, long chunk) {
        Gpu gpu = owner.gpu();
        PeerLink link = gpu.linkTo(peer.gpu());
        long address = chunk + link.offset(peer.gpu());                 // uvm_gpu_peer_phys_address
        int device = peer.gpu().id();
        return link.usesPeerSlot()
                ? Pte.peer(PageSize.SIZE_2M, gpu.peerSlot(peer.gpu()), address, Access.READWRITE, device)
                : Pte.system(PageSize.SIZE_2M, link.aperture(), address, Access.READWRITE, device);
    }

    /** Unmaps everything of {@code peer}'s from this context and forgets it. */
    private void drop(GpuProcess peer) {
        peer.forEachMalloc((at, chunks) -> owner.unmapPages(at, chunks.length * Gpu.PAGE));
        peer.peerAccess().mirrors.remove(owner);
        peers.remove(peer.gpu().id());
    }
}
