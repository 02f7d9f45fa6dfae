"""Native sign-in for Microsoft Entra External ID from Python, over libmsalnativeauth.so.

    from msal_native_auth import PublicClientApplication, CodeRequired, SignedIn

    app = PublicClientApplication({"client_id": "…", "tenant_subdomain": "contoso"})
    step = app.sign_in("ada@contoso.com", password="…")
    if isinstance(step, CodeRequired):
        step = step.state.submit_code(input(f"Code sent to {step.sent_to}: "))
    assert isinstance(step, SignedIn)
    token = step.account.get_access_token(["api://contoso/todolist/ToDoList.Read"])
"""

from ._token import AccessToken
from .client import (
    LogLevel,
    PublicClientApplication,
    flush_log,
    library_version,
    live_handles,
    live_strings,
    set_log_callback,
)
from .results import (
    Account,
    AttributesInvalid,
    AttributesRequired,
    AuthMethod,
    CodeRequired,
    FlowState,
    MFARequired,
    PasswordRequired,
    RegistrationRequired,
    RequiredAttribute,
    ResetPasswordCompleted,
    Scenario,
    SignedIn,
    SignUpCompleted,
    StateKind,
    Step,
)
from .errors import *  # noqa: F401,F403 - the exception classes (errors.__all__)
from .errors import ERROR_CLASSES, NativeAuthError, RestoreStateError
from .browser import BrowserSignedIn, SignInURL, cancel_browser_sign_in
from .options import claims_from_challenge
from .v2 import (
    AttributesRequiredState,
    AuthMethodSelectionRequiredState,
    CodeRequiredState,
    MFAVerificationRequiredState,
    NewPasswordRequiredState,
    PasswordRequiredState,
    SignInAfterResetPasswordState,
    SignInAfterSignUpState,
    StepV2,
    StrongAuthRegistrationRequiredState,
    StrongAuthVerificationRequiredState,
)

from ._version import __version__

__all__ = [
    "AccessToken", "Account", "AttributesInvalid", "AttributesRequired", "AuthMethod", "CodeRequired", "FlowState",
    "MFARequired", "PasswordRequired", "PublicClientApplication", "RegistrationRequired", "RequiredAttribute",
    "ResetPasswordCompleted", "SignedIn", "SignUpCompleted", "StateKind", "Step", "NativeAuthError", "RestoreStateError", "ERROR_CLASSES",
    "library_version", "live_handles", "live_strings", "LogLevel", "set_log_callback", "flush_log",
    "BrowserSignedIn", "SignInURL", "cancel_browser_sign_in", "claims_from_challenge",
    # Native auth V2 (experimental)
    "Scenario", "StepV2", "CodeRequiredState", "PasswordRequiredState", "NewPasswordRequiredState", "AttributesRequiredState",
    "AuthMethodSelectionRequiredState", "MFAVerificationRequiredState", "StrongAuthRegistrationRequiredState",
    "StrongAuthVerificationRequiredState", "SignInAfterSignUpState", "SignInAfterResetPasswordState",
] + [cls.__name__ for cls in ERROR_CLASSES.values()]
