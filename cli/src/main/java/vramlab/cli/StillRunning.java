package vramlab.cli;

import java.time.Duration;
import java.util.Timer;
import java.util.TimerTask;

/**
 * One line said once a command has run for a while, unless it ended first: a lab on a student's
 * cores that loops forever looks, from outside, like one still working, and prints nothing.
 * Closing it before the delay says nothing.
 */
final class StillRunning implements AutoCloseable {
    private final Timer timer = new Timer("vramlab still-running", true);

    private StillRunning(Duration after, Runnable say) {
        timer.schedule(new TimerTask() {
            @Override
            public void run() { say.run(); }
        }, Math.max(1, after.toMillis()));
    }

    /** Says {@code say} after {@code after}, on a daemon thread, unless closed first. */
    static StillRunning after(Duration after, Runnable say) { return new StillRunning(after, say); }

    @Override
    public void close() { timer.cancel(); }
}
