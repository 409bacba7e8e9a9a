package vramlab.ch06;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import vramlab.buddy.BuddyOutOfMemoryError;
import vramlab.contest.BuddyEntry;
import vramlab.driver.Gpu;

/**
 * The contest's buddy entry (chapter 8) agrees with this chapter's measured comparison: run in
 * {@link Comparison} as one more contender beside {@code buddy-vmm} (the same buddy with pages
 * committed on demand), on the chat workload and the chapter's budget, it admits, waits, preempts
 * and holds exactly what {@code buddy-vmm} does, step by step. The adapter keeps this chapter's
 * KV rules (one block per sequence, at least 16 tokens, regrown to the next order with both live
 * during the copy) and asks the entry, through {@code alloc} and {@code free} only, for the bytes.
 */
class BuddyEntryInTheComparisonTest {
    /** Chapter 8's entry behind this chapter's contender calls. */
    static final class EntryContender implements KvContender {
        private final Setup setup;
        private final BuddyEntry entry;
        private final Map<Integer, Long> address = new HashMap<>();
        private final Map<Integer, Long> tokens = new HashMap<>();
        private long liveTokens;

        EntryContender(Setup setup) {
            this.setup = setup;
            this.entry = new BuddyEntry(new Gpu(setup.budgetBytes()).openToyProcess());
        }

        private long bytes(long n) { return Math.max(16, n) * setup.bytesPerToken(); }

        private Long tryAlloc(long n) {
            try {
                return entry.alloc(bytes(n), 0);
            } catch (BuddyOutOfMemoryError e) {
                return null;
            }
        }

        @Override public String name() { return "buddy-entry"; }

        @Override
        public boolean admit(int seq, long n) {
            Long a = tryAlloc(n);
            if (a == null) return false;
            address.put(seq, a);
            tokens.put(seq, n);
            liveTokens += n;
            return true;
        }

        @Override
        public boolean grow(int seq, long n) {
            long old = address.get(seq);
            if (n * setup.bytesPerToken() > entry.blockSize(old)) {
                Long bigger = tryAlloc(n);
                if (bigger == null) return false;
                entry.free(old);
                address.put(seq, bigger);
            }
            liveTokens += n - tokens.put(seq, n);
            return true;
        }

        @Override
        public void release(int seq) {
            entry.free(address.remove(seq));
            liveTokens -= tokens.remove(seq);
        }

        @Override public long requestedBytes() { return liveTokens * setup.bytesPerToken(); }
        @Override public long allocatedBytes() { return entry.buddy().allocated(); }
        @Override public long reservedBytes() { return entry.buddy().reserved(); }
        @Override public long freeBytes() { return entry.buddy().freeBytes(); }
        @Override public long largestServableTokens() { return entry.buddy().largestFreeBlock() / setup.bytesPerToken(); }
        @Override public long maxSequenceTokens() { return (1L << entry.buddy().maxOrder() - 1) / setup.bytesPerToken(); }
        @Override public void checkInvariants() { entry.buddy().checkInvariants(); }
    }

    @Test
    void theContestsBuddyEntryMatchesBuddyVmmInTheChaptersComparison() {
        for (long seed : new long[] {1, 7}) {
            Comparison standard = Comparison.standard(seed);
            Comparison c = new Comparison(standard.workload(), standard.model(), standard.budget(), List.of(
                    KvContender.buddyOnDemand(), new KvContender.Factory("buddy-entry", EntryContender::new)));
            List<Result> r = c.run(false);
            Result vmm = r.get(0), entry = r.get(1);
            assertThat(vmm.completed()).as("seed %d: the workload ran", seed).isPositive();
            // The samples (a record per step) compared with List.equals: AssertJ's field-by-field
            // walk of thousands of them was over half the test's time; a difference still names
            // the field and prints both lists.
            assertThat(entry).as("seed %d", seed).usingRecursiveComparison().ignoringFields("name")
                    .withEqualsForFields(Object::equals, "samples").isEqualTo(vmm);
            assertThat(c.table(r).lines().filter(l -> l.startsWith("buddy-")).map(l -> l.substring(14)).distinct())
                    .as("the two table rows, names aside").hasSize(1);
        }
    }
}
