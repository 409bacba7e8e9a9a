package org.teavm.classlib.java.util.concurrent.locks;

/**
 * {@code java.util.concurrent.locks.ReentrantLock} for the browser bundle, which TeaVM 0.16's
 * class library lacks: TeaVM maps a JDK class {@code java.x.Y} to {@code org.teavm.classlib.java.x.TY}
 * found on its class path. Commons CSV's {@code CSVPrinter} (the kit's CSV writer) guards each
 * record with one; a page's script runs on one thread, so the lock only counts its holds.
 * The JVM never loads this class.
 */
public class TReentrantLock {
    private int holds;

    public TReentrantLock() { }

    public TReentrantLock(boolean fair) { }

    public void lock() { holds++; }

    public boolean tryLock() { holds++; return true; }

    public void unlock() {
        if (holds == 0) throw new IllegalMonitorStateException();
        holds--;
    }

    public boolean isLocked() { return holds > 0; }

    public boolean isHeldByCurrentThread() { return holds > 0; }

    public int getHoldCount() { return holds; }
}
