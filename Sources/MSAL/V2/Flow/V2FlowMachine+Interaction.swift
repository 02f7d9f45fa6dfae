import Foundation

extension V2FlowMachine {
    /// What a step knows while it waits for an href's answer: what the answers of every journey
    /// read, and the part only its own journey has (`Journey`), so a reset carries neither the
    /// sign-in's password nor the sign-up's attribute ids.
    package struct Interaction: Sendable, Equatable {
        /// Why the user is choosing or verifying a method.
        var purpose: Purpose
        /// The type of the method just challenged, registered or resent (`email`, `sms`, `password`).
        var challengedType: String?
        /// The step took its one silent risk verification.
        var riskHopped = false
        /// The polls sent so far after a new password: a reset's, or a recovery's started from a
        /// password state inside another journey.
        var polls = 0
        var journey: Journey

        package init(purpose: Purpose, challengedType: String? = nil, journey: Journey) {
            self.purpose = purpose
            self.challengedType = challengedType
            self.journey = journey
        }
    }

    /// The part of an interaction that only one journey has.
    package enum Journey: Sendable, Equatable {
        /// A sign-in: the password the app gave up front (dropped as soon as the one first factor
        /// is not a password), and whether the step challenged that factor itself, so that the
        /// password may answer it.
        case signIn(password: String?, autoChallenged: Bool)
        /// A sign-up: the attribute ids the step already sent, and whether it answered an empty
        /// `collectAttributes` with an empty submit.
        case signUp(sent: Set<String>, submittedNothing: Bool)
        /// A password reset has nothing of its own.
        case passwordReset
    }

    /// A step's interaction with nothing learnt yet: its journey's part empty, or for a sign-up
    /// the attribute ids `sent`.
    func interaction(_ purpose: Purpose, challenged type: String? = nil, sent: Set<String> = []) -> Interaction {
        let journey: Journey =
            switch scenario {
            case .signIn, .unknown: .signIn(password: nil, autoChallenged: false)
            case .signUp: .signUp(sent: sent, submittedNothing: false)
            case .passwordReset: .passwordReset
            }
        return Interaction(purpose: purpose, challengedType: type, journey: journey)
    }
}

extension V2FlowMachine.State: CustomStringConvertible {
    /// The state's name and step, without the up-front password a sign-in's may carry: the message
    /// of a controller error that names the state (`expect`, the events' guards) shows no credential.
    package var description: String {
        switch self {
        case .idle: "idle"
        case .entering: "entering"
        case .interacting(let step, _): "interacting(\(step))"
        case .resuming(let step): "resuming(\(step))"
        case .redeeming: "redeeming"
        case .done: "done"
        }
    }
}
