/// Everything the screen shows. A value: `update` changes it, `render` draws it.
public struct DemoModel: Equatable, Sendable {
    public var email = ""
    public var password = ""
    public var focus: Focus = .email
    /// The result view's text (the tutorial's `resultTextView`).
    public var result = ""
    /// The first line of the result view shown (PgUp/PgDn move it when the text is longer than the view).
    public var resultScroll = 0
    /// A network operation is under way: the spinner turns, Esc cancels.
    public var busy = false
    public var spinnerFrame = 0
    /// A dialog asking for a code, a new password or attributes.
    public var prompt: Prompt?
    /// Who is signed in, for the status area.
    public var signedInAs: String?
    /// The result view offers "Continue in browser": the service needs a browser sign-in (a flow
    /// answered "browser required", or an API sent a claims challenge).
    public var browserOffered = false
    /// Where to sign in, shown across the result view and the mailbox while the browser sign-in
    /// waits, when no browser could be started (over SSH, for example).
    public var signInAddress: SignInAddress?
    /// The emulator's mailbox lines, newest first; nil when talking to a real tenant.
    public var mailbox: [String]?
    public var size = Size(columns: 80, rows: 24)
    /// Shown at the top right: `emulator` or the tenant's host.
    public var mode = "emulator"
    /// Sign In, Sign Up and Reset Password go through native auth V2 (`--v2`, experimental); the title bar says so.
    public var signInV2 = false
    public var quit = false

    public init() {}

    public struct Size: Equatable, Sendable {
        public var columns: Int
        public var rows: Int
        public init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// The focus order of the main screen, or of the dialog when one is open.
    public var focusOrder: [Focus] {
        if let prompt {
            return prompt.options.indices.map { Focus.promptOption($0) } + prompt.fields.indices.map { Focus.promptField($0) }
                + prompt.buttons.map { Focus.promptButton($0) }
        }
        return [.email, .password] + DemoButton.allCases.filter { $0 != .continueInBrowser || browserOffered }.map { Focus.button($0) }
    }

    /// Takes the "Continue in browser" button away; a focus on it moves to the button before it.
    public mutating func withdrawBrowserOffer() {
        guard browserOffered else { return }
        if focus == .button(.continueInBrowser) { focus = .button(.api2) }
        browserOffered = false
    }
}

/// The short form of the browser sign-in's address (MSAL's `MSALSignInAddress`): the SDK listener's
/// `http://localhost:PORT/`, which leads to the sign-in page, and the `ssh -L` line that brings it
/// (and the embedded emulator's port) to the person's own machine.
public struct SignInAddress: Equatable, Sendable {
    public var shortURL: String
    public var sshCommand: String
    /// Whether `sshCommand` ends with the `user@host` placeholder (not signed in over SSH).
    public var placeholderHost: Bool
}

public enum Focus: Hashable, Sendable {
    case email
    case password
    case button(DemoButton)
    case promptOption(Int)
    case promptField(Int)
    case promptButton(PromptButton)
}

/// The tutorial screen's buttons.
public enum DemoButton: String, CaseIterable, Sendable {
    case signIn = "Sign In"
    case signUp = "Sign Up"
    case resetPassword = "Reset Password"
    case signOut = "Sign Out"
    case api1 = "API 1"
    case api2 = "API 2"
    /// In the result view, only while `DemoModel.browserOffered`.
    case continueInBrowser = "Continue in browser"
}

public enum PromptButton: String, Sendable {
    case submit = "Submit"
    case resend = "Resend"
    /// Back from a code dialog to the choice of method (MFA) or of contact (registration).
    case otherMethod = "Other method"
    case cancel = "Cancel"
}

/// A dialog: a title, selectable rows, fields to fill and buttons.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case signInCode, signUpCode, resetCode
        case signUpPassword, resetPassword, signInPassword
        /// V2 sign-in: choose the first factor (password or email code) among several.
        case signInMethod
        /// V2 password reset: choose where the reset code goes (email or SMS).
        case recoveryMethod
        case attributes
        /// MFA: choose the method a second-factor code goes to.
        case mfaMethod
        /// MFA: the second-factor code.
        case mfaCode
        /// Strong-auth registration: the kind of method and the contact.
        case registerMethod
        /// Strong-auth registration: the code sent to the new contact.
        case registerCode
    }

    public struct Field: Equatable, Sendable {
        public var label: String
        public var text = ""
        public var masked = false
        /// What the field is called in the request (a sign-up attribute's name), when it differs from the label.
        public var name: String?
        /// Submit refuses the dialog while this field is empty (a required V2 sign-up attribute).
        public var required = false
        /// A choice instead of free text: Space and the arrows Left/Right step through these values,
        /// typing does nothing (a V2 sign-up attribute with options). Empty: a text field.
        public var choices: [String] = []
        public init(
            label: String, text: String = "", masked: Bool = false, name: String? = nil, required: Bool = false, choices: [String] = []
        ) {
            self.label = label
            self.text = text
            self.masked = masked
            self.name = name
            self.required = required
            self.choices = choices
        }

        /// The choice `step` places from the current one (wrapping); the first or last when none is chosen yet.
        public func choice(_ step: Int) -> String? {
            guard !choices.isEmpty else { return nil }
            guard let index = choices.firstIndex(of: text) else { return step > 0 ? choices.first : choices.last }
            return choices[((index + step) % choices.count + choices.count) % choices.count]
        }
    }

    /// A selectable row: a label and a detail after it (for example `Email` and a masked address).
    public struct Option: Equatable, Sendable {
        public var label: String
        public var detail: String
        public init(label: String, detail: String = "") {
            self.label = label
            self.detail = detail
        }
    }

    public var kind: Kind
    public var title: String
    public var options: [Option]
    /// The option marked as chosen (a radio button when the options do not submit).
    public var selected: Int
    /// Choosing an option (Enter, Space, click) sends it at once (`DemoEffect.choose`); otherwise it
    /// only marks it and the dialog's Submit sends it with the fields.
    public var optionsSubmit: Bool
    public var fields: [Field]
    public var buttons: [PromptButton]
    /// A line under the fields (an error, or what was sent where).
    public var message: String?

    public init(
        kind: Kind, title: String, options: [Option] = [], selected: Int = 0, optionsSubmit: Bool = false, fields: [Field],
        buttons: [PromptButton], message: String? = nil
    ) {
        self.kind = kind
        self.title = title
        self.options = options
        self.selected = selected
        self.optionsSubmit = optionsSubmit
        self.fields = fields
        self.buttons = buttons
        self.message = message
    }
}

/// A key (or mouse, resize, timer) event, as the terminal driver maps it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case tab, backTab, up, down, left, right
    case enter, escape, backspace
    /// Scroll the result view by a page.
    case pageUp, pageDown
    case resize(columns: Int, rows: Int)
    case click(x: Int, y: Int)
    /// Ctrl-C, Ctrl-D, SIGINT or SIGTERM.
    case interrupt
    /// A timer tick (turns the spinner).
    case tick
}

/// What an update asks the controller to do.
public enum DemoEffect: Equatable, Sendable {
    case press(DemoButton)
    /// The dialog's Submit with its field values.
    case submit([String])
    case resend
    /// An option of a dialog whose options submit (the MFA method picker), by index.
    case choose(Int)
    /// A code dialog's "Other method".
    case otherMethod
    case cancelPrompt
    /// Esc while busy.
    case cancelOperation
    case quit
}
