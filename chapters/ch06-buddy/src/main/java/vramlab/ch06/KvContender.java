package vramlab.ch06;

import java.util.function.Function;

import vramlab.alloc.Policy;

/**
 * One way to keep the KV cache of many growing sequences in a fixed budget of device memory.
 * Every contender runs the same workload through the same {@link Serving} loop; only these
 * calls differ.
 */
public interface KvContender {
    String name();

    /** Makes room for a new sequence's first {@code tokens} tokens; false when there is none now. */
    boolean admit(int seq, long tokens);

    /** The sequence now holds {@code tokens} tokens; false when its cache cannot grow. */
    boolean grow(int seq, long tokens);

    /** The sequence finished or was preempted: its memory goes back. */
    void release(int seq);

    /** Bytes the live tokens need: tokens x bytes per token. */
    long requestedBytes();

    /** Bytes held for live sequences (blocks, rounded sizes). */
    long allocatedBytes();

    /** Bytes this contender holds from the driver now. */
    long reservedBytes();

    /** Bytes of the budget that hold no live sequence. */
    long freeBytes();

    /** The longest new sequence, in tokens, that would be admitted now. */
    long largestServableTokens();

    /** The longest sequence, in tokens, this contender could hold in an empty budget. */
    long maxSequenceTokens();

    void checkInvariants();

    /** Extra figures a contender reports (compactions, bytes moved); empty by default. */
    default String notes() { return ""; }

    /** The budget and the per-token size every contender of one comparison gets. */
    record Setup(long budgetBytes, long bytesPerToken) {}

    /** A named way to build a contender for a setup. */
    record Factory(String name, Function<Setup, KvContender> make) {
        public KvContender create(Setup s) { return make.apply(s); }
    }

    // tag::factories[]
    /** A caching allocator with the given policy; each sequence's KV is one block, regrown. */
    static Factory caching(String name, Policy policy) {
        return new Factory(name, s -> new CachingContender(name, policy, s, 16));
    }

    /** One buddy block per sequence, doubled when outgrown; min block 16 tokens. */
    static Factory buddy() {
        return new Factory("buddy", s -> new BuddyContender("buddy", s, 16, -1));
    }

    /** The buddy with its 2 MiB pages committed on demand through the VMM calls. */
    static Factory buddyOnDemand() {
        return new Factory("buddy-vmm", s -> new BuddyContender("buddy-vmm", s, 16, -1, true));
    }

    /** The buddy, compacting when Linux's unusable index for the next request reaches 0.5. */
    static Factory buddyCompacting() {
        return new Factory("buddy+compact", s -> new BuddyContender("buddy+compact", s, 16, 500));
    }

    /** vLLM-style paged blocks of {@code blockSize} tokens. */
    static Factory paged(int blockSize) {
        return new Factory("paged-" + blockSize, s -> new PagedContender("paged-" + blockSize, s, blockSize));
    }
    // end::factories[]
}
