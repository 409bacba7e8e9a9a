package vramlab.contest;

import java.util.function.Function;

import vramlab.driver.GpuProcess;

/**
 * An entry of the contest: its name and how to build it on a fresh process (every workload
 * starts on a card of its own).
 */
public record Contestant(String name, Function<GpuProcess, DeviceAllocator> factory) {
    public DeviceAllocator on(GpuProcess process) { return factory.apply(process); }

    @Override public String toString() { return name; }
}
