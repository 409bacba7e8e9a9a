package vramlab.ch06;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one contender did with one workload. Internal fragmentation is measured as allocated
 * over requested, summed over all steps; external fragmentation as the share of free bytes
 * that the next largest possible sequence could not use, averaged over steps with free bytes.
 */
public record Result(String name, int completed, int rejected, int admissionFailures,
                     int failuresWithEnoughFree, int preemptions, long steps, long peakReserved,
                     long peakAllocated, double internalWaste, double externalFragmentation,
                     List<Serving.Sample> samples, String notes) {

    /** What JShell shows: one line, the table's figures (the samples stay out of it). */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s: %d done, %d rejected, %d preemptions, peak reserved %s,"
                + " internal waste %.1f%%, external fragmentation %.1f%%", name, completed, rejected, preemptions,
                vramlab.units.Bytes.formatSize(peakReserved), 100 * internalWaste, 100 * externalFragmentation);
    }

    /** Allocated over requested, summed over steps: 1.33 means a third more than the tokens need. */
    public double overallocation() { return 1 / (1 - internalWaste); }

    /** The smallest largest-servable sequence seen, in tokens. */
    public long minLargestServable() {
        return samples.stream().mapToLong(Serving.Sample::largestServableTokens).min().orElse(0);
    }

    static final class Builder {
        private final String name;
        private final long bytesPerToken;
        private int completed, rejected, admissionFailures, withEnoughFree, preemptions;
        private long peakReserved, peakAllocated;
        private double sumRequested, sumAllocated, sumExternal;
        private long externalSamples;
        private final List<Serving.Sample> samples = new ArrayList<>();

        Builder(String name, long bytesPerToken) {
            this.name = name;
            this.bytesPerToken = bytesPerToken;
        }

        long bytesPerToken() { return bytesPerToken; }
        int done() { return completed + rejected; }
        void completed() { completed++; }
        void rejected() { rejected++; }
        void preempted() { preemptions++; }

        void admissionFailed(boolean enoughFree) {
            admissionFailures++;
            if (enoughFree) withEnoughFree++;
        }

        void sample(Serving.Sample s) {
            samples.add(s);
            peakReserved = Math.max(peakReserved, s.reserved());
            peakAllocated = Math.max(peakAllocated, s.allocated());
            sumRequested += s.requested();
            sumAllocated += s.allocated();
            if (s.free() > 0) {
                double usable = Math.min(1.0, (double) s.largestServableTokens() * bytesPerToken / s.free());
                sumExternal += 1 - usable;
                externalSamples++;
            }
        }

        Result build(String notes) {
            double waste = sumAllocated == 0 ? 0 : 1 - sumRequested / sumAllocated;
            double ext = externalSamples == 0 ? 0 : sumExternal / externalSamples;
            return new Result(name, completed, rejected, admissionFailures, withEnoughFree, preemptions,
                    samples.size(), peakReserved, peakAllocated, waste, ext,
                    Collections.unmodifiableList(samples), notes);
        }
    }
}
