package vramlab.judge;

import vramlab.trace.TraceEvent;

/**
 * The first check an entry broke: which, at which event, on which block, expected against
 * actual, and the memory around the block as the driver and the checker see it.
 *
 * @param check    {@link Check#word()}
 * @param step     the event's number, from 1
 * @param event    the event
 * @param block    the block in question, {@code 0x... + size}, or "" when none
 * @param expected what the rule asks
 * @param actual   what the entry did
 * @param map      the live blocks near it and the driver's pages under it
 */
public record Broken(Check check, long step, TraceEvent event, String block, String expected, String actual,
                     String map) {
    /** The report, first line first (a score table shows that line). */
    @Override
    public String toString() {
        return "check " + check.word() + " broken at event " + step + " (" + Judge.describe(event) + ")"
                + (block.isEmpty() ? "" : ", block " + block) + ": expected " + expected + " but was " + actual
                + "\nRule: " + check.rule() + "\n" + map;
    }
}
