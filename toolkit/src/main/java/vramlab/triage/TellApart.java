package vramlab.triage;

/** The check a diagnosis ends on: what confirms its cause, or tells it from the runner-up. */
final class TellApart {
    private TellApart() {}

    /** The check that confirms the cause, or tells it from the runner-up, as the message's release can run it. */
    static Fix of(Reading r, Cause c, Finding finding, Cause runnerUp) {
        if (c == Cause.NOT_PYTORCH_OOM) return Fix.plain("");
        Fix own = Release.fix(r, finding != null ? finding.checkEntry() : c.checkEntry());
        if (runnerUp == null) return own.after("To confirm it: ");
        Fix check = runnerUp != Cause.FULL_OR_DRIVER_RESERVE ? Release.fix(r, runnerUp.checkEntry()) : own;
        return check.after("To tell " + (finding != null ? finding.name() : c.name()) + " from "
                + runnerUp.name() + ": ");
    }
}
