/// Whether an answer ended a state's flow: what decides the `newState` a failed delegate call
/// hands back (`nil` once the flow is over, the same state while the user can try again).
///
/// It is no gate. As in MSAL, every call on a state goes to the service, whatever was done with the
/// state before (a code submitted on the state that asked for a resend, a step repeated after it
/// succeeded): the service decides. The table of what each state method does is in docs/usage.md,
/// "Reusing a state".
package final class StateLifecycle: Sendable {
    private let ended = Locked(false)

    package init() {}

    package var hasEnded: Bool { ended.withLock { $0 } }

    /// Records that an answer ended the flow: the service refused the state's token for good, or
    /// moved the flow on and the step that followed failed.
    package func end() {
        ended.withLock { $0 = true }
    }
}
