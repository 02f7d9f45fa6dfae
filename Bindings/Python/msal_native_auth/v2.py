"""Native auth V2 (experimental: it may change without notice; do not use it in production).

The service decides each step of a V2 sign-in, sign-up or password reset (a choice of methods, a
second factor, registering one, a new password); ``PublicClientApplication.sign_in_v2``,
``sign_up_v2`` and ``reset_password_v2`` return the step it asks for, one class per kind of step
(named after MSAL's V2 states), each with the calls that answer it and ``scenario``, or
``SignedIn``. Failures raise the package's NativeAuthError subclasses (InvalidAttributesError
carries ``attribute_names``). ``step.save()`` and ``PublicClientApplication.restore_state``
continue a step later. The steps wrap the C interface's V2 states (msal_native_auth.h, "Native
auth V2")."""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Type, Union

from . import _native, options
from ._calls import Scopes, Text, _bytes, _scopes
from ._native import CALLBACK, lib
from .errors import InvalidArgumentError, WrongStateError
from .results import AuthMethod, FlowState, RequiredAttribute, Scenario, SignedIn, StateKind, Step, _outcome, _start, _wait

_HANDLE = ctypes.c_void_p
_STRING = ctypes.c_char_p
_OUT = ctypes.POINTER(ctypes.c_void_p)
_INT = ctypes.c_int
_SIZE = ctypes.c_size_t

_native.declare(
    {
        "msal_na_sign_in_v2": (_INT, [_HANDLE, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_sign_in_v2_wait": (_INT, [_HANDLE, _STRING, _STRING, _OUT]),
        "msal_na_sign_up_v2": (_INT, [_HANDLE, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_sign_up_v2_wait": (_INT, [_HANDLE, _STRING, _STRING, _OUT]),
        "msal_na_reset_password_v2": (_INT, [_HANDLE, _STRING, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_reset_password_v2_wait": (_INT, [_HANDLE, _STRING, _STRING, _OUT]),
        "msal_na_state_submit_new_password": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_state_submit_new_password_wait": (_INT, [_HANDLE, _STRING, _OUT]),
        "msal_na_state_select_auth_method": (_INT, [_HANDLE, _SIZE, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_state_select_auth_method_wait": (_INT, [_HANDLE, _SIZE, _STRING, _OUT]),
        "msal_na_state_submit_challenge": (_INT, [_HANDLE, _STRING, CALLBACK, ctypes.c_void_p]),
        "msal_na_state_submit_challenge_wait": (_INT, [_HANDLE, _STRING, _OUT]),
        "msal_na_state_resend_challenge": (_INT, [_HANDLE, CALLBACK, ctypes.c_void_p]),
        "msal_na_state_resend_challenge_wait": (_INT, [_HANDLE, _OUT]),
        "msal_na_state_recover_password": (_INT, [_HANDLE, CALLBACK, ctypes.c_void_p]),
        "msal_na_state_recover_password_wait": (_INT, [_HANDLE, _OUT]),
        "msal_na_result_scenario": (_INT, [_HANDLE]),
        "msal_na_state_scenario": (_INT, [_HANDLE]),
        "msal_na_state_selection_purpose": (_INT, [_HANDLE]),
        "msal_na_state_sent_to": (ctypes.c_void_p, [_HANDLE]),
        "msal_na_state_channel": (ctypes.c_void_p, [_HANDLE]),
        "msal_na_state_code_length": (_INT, [_HANDLE]),
        "msal_na_state_attribute_count": (_SIZE, [_HANDLE]),
        "msal_na_state_attribute": (ctypes.c_void_p, [_HANDLE, _SIZE, _INT]),
        "msal_na_state_can_recover_password": (_INT, [_HANDLE]),
    }
)

Outcome = Union["StepV2", SignedIn]
Method = Union[AuthMethod, int]


def _convert(result: int) -> Any:
    """A C result as a V2 step (or SignedIn); raises its error; frees the result."""
    return step_for(_outcome(result))


def step_for(step: Step) -> Any:
    """The V2 class of a step whose state is of a V2 kind; any other step as it is."""
    state = step.state
    kind = state.kind if state is not None else None
    if state is None or kind is None or kind < StateKind.V2_CODE_REQUIRED:
        return step
    return from_state(state)


def from_state(state: FlowState) -> "StepV2":
    """The step class of a V2 state (a fresh or a restored one), filled from the state itself."""
    handle = state.handle
    cls = _CLASSES[StateKind(lib.msal_na_state_kind(handle))]
    values: Dict[str, Any] = {"state": state, "scenario": Scenario(lib.msal_na_state_scenario(handle))}
    if issubclass(cls, _CodeSent):
        values["sent_to"] = _native.take_string(lib.msal_na_state_sent_to(handle)) or ""
        values["channel"] = _native.take_string(lib.msal_na_state_channel(handle)) or ""
        values["code_length"] = lib.msal_na_state_code_length(handle)
    if issubclass(cls, _Selection):
        values["auth_methods"] = state.auth_methods
    if cls is AuthMethodSelectionRequiredState:
        values["purpose"] = _PURPOSES.get(lib.msal_na_state_selection_purpose(handle), "")
    if cls is AttributesRequiredState:
        attributes = []
        for index in range(lib.msal_na_state_attribute_count(handle)):
            name, kind, required, regex = (_native.take_string(lib.msal_na_state_attribute(handle, index, f)) for f in range(4))
            attributes.append(RequiredAttribute(name or "", kind or "", required == "true", regex))
        values["attributes"] = attributes
    if cls is PasswordRequiredState:
        values["can_recover_password"] = bool(lib.msal_na_state_can_recover_password(handle))
    return cls(**values)


_PURPOSES = {1: "first_factor", 2: "mfa", 3: "recovery", 4: "existing_account"}


def start_arguments(
    app_handle: Optional[int], username: Text, scopes: Scopes, claims: Optional[Any], correlation_id: Optional[Any],
    attributes: Optional[Mapping[str, Any]] = None,
) -> tuple:
    """The C arguments of a V2 start: the application, the username and the options JSON."""
    encoded = options.encode(scopes=options.scope_list(scopes), claims=claims, correlation_id=correlation_id, attributes=attributes)
    return (app_handle, _bytes(username, "username"), encoded)


def sign_in(app_handle: Optional[int], *arguments: Any) -> Any:
    return _wait(lib.msal_na_sign_in_v2_wait, *start_arguments(app_handle, *arguments), convert=_convert)


def sign_up(app_handle: Optional[int], *arguments: Any) -> Any:
    return _wait(lib.msal_na_sign_up_v2_wait, *start_arguments(app_handle, *arguments), convert=_convert)


def reset_password(app_handle: Optional[int], *arguments: Any) -> Any:
    return _wait(lib.msal_na_reset_password_v2_wait, *start_arguments(app_handle, *arguments), convert=_convert)


async def sign_in_async(app_handle: Optional[int], *arguments: Any) -> Any:
    return await _start(lib.msal_na_sign_in_v2, *start_arguments(app_handle, *arguments), convert=_convert)


async def sign_up_async(app_handle: Optional[int], *arguments: Any) -> Any:
    return await _start(lib.msal_na_sign_up_v2, *start_arguments(app_handle, *arguments), convert=_convert)


async def reset_password_async(app_handle: Optional[int], *arguments: Any) -> Any:
    return await _start(lib.msal_na_reset_password_v2, *start_arguments(app_handle, *arguments), convert=_convert)


# ---- The steps --------------------------------------------------------------------------------------


@dataclass
class StepV2(Step):
    """Base of the native auth V2 steps (experimental). ``scenario``: the flow the step belongs to.
    Close the step (or use ``with``) when you do not continue it."""

    scenario: Scenario = Scenario.UNKNOWN

    def _handle(self) -> Optional[int]:
        return self.state.handle if self.state is not None else None

    def save(self) -> str:
        """The step as a string (JSON) that ``PublicClientApplication.restore_state`` turns back into
        this kind of step, for up to 10 minutes. It holds the flow's continuation token: keep it where
        a password could go, never in a log. Sign-up and reset steps after the code cannot be saved
        yet (WrongStateError); a closed step raises InvalidArgumentError, as its other calls do."""
        handle = self._handle()
        if not handle:
            raise InvalidArgumentError("'state' is NULL: the step is closed", code=1)
        saved = _native.take_string(lib.msal_na_state_save(handle))
        if saved is None:
            raise WrongStateError(_native.last_error_message() or "this step cannot be saved", code=4)
        return saved


@dataclass
class _CodeSent(StepV2):
    """A step that sent a code: where, how and how long."""

    sent_to: str = ""
    channel: str = ""
    code_length: int = 0


@dataclass
class _Selection(StepV2):
    """A step that offers auth methods."""

    auth_methods: List[AuthMethod] = field(default_factory=list)

    def _index(self, method: Method) -> int:
        if isinstance(method, int):
            return method
        for index, offered in enumerate(self.auth_methods):
            if offered.id == method.id:
                return index
        raise ValueError(f"the method '{method.id}' is not one of this step's auth_methods")


@dataclass
class CodeRequiredState(_CodeSent):
    """V2 (experimental): a one-time code went to ``sent_to`` over ``channel`` (``code_length``
    digits): ``submit_code``, or ``resend_code`` for a new one."""

    def submit_code(self, code: Text) -> Outcome:
        """Sends the code; InvalidCodeError keeps this step usable for another try."""
        return _wait(lib.msal_na_state_submit_code_wait, self._handle(), _bytes(code, "code"), convert=_convert)

    def resend_code(self) -> "CodeRequiredState":
        """Sends a new code: a new CodeRequiredState (use that one)."""
        return _wait(lib.msal_na_state_resend_code_wait, self._handle(), convert=_convert)  # type: ignore[no-any-return]

    async def submit_code_async(self, code: Text) -> Outcome:
        """``submit_code`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_code, self._handle(), _bytes(code, "code"), convert=_convert)

    async def resend_code_async(self) -> "CodeRequiredState":
        """``resend_code`` as a coroutine."""
        return await _start(lib.msal_na_state_resend_code, self._handle(), convert=_convert)  # type: ignore[no-any-return]


@dataclass
class PasswordRequiredState(StepV2):
    """V2 (experimental): the service asks for the password (sign-in, or a sign-up's new one):
    ``submit_password``. ``can_recover_password``: ``recover_password`` resets it inside the sign-in."""

    can_recover_password: bool = False

    def submit_password(self, password: Text) -> Outcome:
        """Sends the password; a wrong one (or one the policy refuses) raises InvalidPasswordError and
        keeps this step usable."""
        return _wait(lib.msal_na_state_submit_password_wait, self._handle(), _bytes(password, "password"), convert=_convert)

    def recover_password(self) -> Outcome:
        """Starts a password reset inside this sign-in (a code, a new password; the sign-in then completes)."""
        return _wait(lib.msal_na_state_recover_password_wait, self._handle(), convert=_convert)

    async def submit_password_async(self, password: Text) -> Outcome:
        """``submit_password`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_password, self._handle(), _bytes(password, "password"), convert=_convert)

    async def recover_password_async(self) -> Outcome:
        """``recover_password`` as a coroutine."""
        return await _start(lib.msal_na_state_recover_password, self._handle(), convert=_convert)


@dataclass
class NewPasswordRequiredState(StepV2):
    """V2 (experimental): a reset (or an inline recovery) asks for the new password: ``submit_new_password``."""

    def submit_new_password(self, password: Text) -> Outcome:
        """Sends the new password; one the policy refuses raises InvalidPasswordError (try another here)."""
        return _wait(lib.msal_na_state_submit_new_password_wait, self._handle(), _bytes(password, "password"), convert=_convert)

    async def submit_new_password_async(self, password: Text) -> Outcome:
        """``submit_new_password`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_new_password, self._handle(), _bytes(password, "password"), convert=_convert)


@dataclass
class AttributesRequiredState(StepV2):
    """V2 (experimental): a sign-up needs these ``attributes``: ``submit_attributes({id: value})``.
    Refused values raise InvalidAttributesError (``attribute_names``); correct them here."""

    attributes: List[RequiredAttribute] = field(default_factory=list)

    def submit_attributes(self, attributes: Mapping[str, Any]) -> Outcome:
        """Sends attribute values by id: strings, booleans, numbers, lists of strings."""
        encoded = _bytes(json.dumps(dict(attributes)), "attributes")
        return _wait(lib.msal_na_state_submit_attributes_wait, self._handle(), encoded, convert=_convert)

    async def submit_attributes_async(self, attributes: Mapping[str, Any]) -> Outcome:
        """``submit_attributes`` as a coroutine."""
        encoded = _bytes(json.dumps(dict(attributes)), "attributes")
        return await _start(lib.msal_na_state_submit_attributes, self._handle(), encoded, convert=_convert)


@dataclass
class AuthMethodSelectionRequiredState(_Selection):
    """V2 (experimental): the user chooses one of ``auth_methods``; ``purpose`` says why:
    "first_factor", "mfa" (always a choice, even of one), "recovery" or "existing_account". One
    successful choice per step (a second raises GeneralError)."""

    purpose: str = ""

    def select_auth_method(self, method: Method) -> Outcome:
        """Chooses ``method`` (one of ``auth_methods``, or its index)."""
        return _wait(lib.msal_na_state_select_auth_method_wait, self._handle(), self._index(method), None, convert=_convert)

    async def select_auth_method_async(self, method: Method) -> Outcome:
        """``select_auth_method`` as a coroutine."""
        return await _start(lib.msal_na_state_select_auth_method, self._handle(), self._index(method), None, convert=_convert)


@dataclass
class StrongAuthRegistrationRequiredState(_Selection):
    """V2 (experimental): the user registers a second factor: one of ``auth_methods`` with the contact
    (email address or phone number) codes should go to."""

    def select_auth_method(self, method: Method, verification_contact: Optional[Text] = None) -> Outcome:
        """Registers ``method`` (one of ``auth_methods``, or its index) with ``verification_contact``."""
        contact = _bytes(verification_contact, "verification_contact")
        return _wait(lib.msal_na_state_select_auth_method_wait, self._handle(), self._index(method), contact, convert=_convert)

    async def select_auth_method_async(self, method: Method, verification_contact: Optional[Text] = None) -> Outcome:
        """``select_auth_method`` as a coroutine."""
        contact = _bytes(verification_contact, "verification_contact")
        return await _start(lib.msal_na_state_select_auth_method, self._handle(), self._index(method), contact, convert=_convert)


@dataclass
class _Challenge(_CodeSent):
    """A second-factor or registration code was sent."""

    def submit_challenge(self, code: Text) -> Outcome:
        """Sends the code; InvalidCodeError keeps this step usable for another try."""
        return _wait(lib.msal_na_state_submit_challenge_wait, self._handle(), _bytes(code, "code"), convert=_convert)

    def resend_challenge(self) -> Outcome:
        """Sends a new code: a new step of this kind (use that one)."""
        return _wait(lib.msal_na_state_resend_challenge_wait, self._handle(), convert=_convert)

    async def submit_challenge_async(self, code: Text) -> Outcome:
        """``submit_challenge`` as a coroutine."""
        return await _start(lib.msal_na_state_submit_challenge, self._handle(), _bytes(code, "code"), convert=_convert)

    async def resend_challenge_async(self) -> Outcome:
        """``resend_challenge`` as a coroutine."""
        return await _start(lib.msal_na_state_resend_challenge, self._handle(), convert=_convert)


@dataclass
class MFAVerificationRequiredState(_Challenge):
    """V2 (experimental): a second-factor code went to ``sent_to``: ``submit_challenge``, ``resend_challenge``."""


@dataclass
class StrongAuthVerificationRequiredState(_Challenge):
    """V2 (experimental): a code went to the method being registered: ``submit_challenge``, ``resend_challenge``."""


@dataclass
class _SignInAfter(StepV2):
    """A sign-up or reset finished: ``sign_in`` gets the tokens."""

    def sign_in(self, scopes: Scopes = None) -> Outcome:
        """Signs the user in without the password, asking for ``scopes``."""
        return _wait(lib.msal_na_state_sign_in_wait, self._handle(), _scopes(scopes), convert=_convert)

    async def sign_in_async(self, scopes: Scopes = None) -> Outcome:
        """``sign_in`` as a coroutine."""
        return await _start(lib.msal_na_state_sign_in, self._handle(), _scopes(scopes), convert=_convert)


@dataclass
class SignInAfterSignUpState(_SignInAfter):
    """V2 (experimental): the sign-up finished; ``sign_in()`` signs the new user in."""


@dataclass
class SignInAfterResetPasswordState(_SignInAfter):
    """V2 (experimental): the password was reset; ``sign_in()`` signs the user in."""


_CLASSES: Dict[StateKind, Type[StepV2]] = {
    StateKind.V2_CODE_REQUIRED: CodeRequiredState,
    StateKind.V2_PASSWORD_REQUIRED: PasswordRequiredState,
    StateKind.V2_NEW_PASSWORD_REQUIRED: NewPasswordRequiredState,
    StateKind.V2_ATTRIBUTES_REQUIRED: AttributesRequiredState,
    StateKind.V2_AUTH_METHOD_SELECTION_REQUIRED: AuthMethodSelectionRequiredState,
    StateKind.V2_MFA_VERIFICATION_REQUIRED: MFAVerificationRequiredState,
    StateKind.V2_STRONG_AUTH_REGISTRATION_REQUIRED: StrongAuthRegistrationRequiredState,
    StateKind.V2_STRONG_AUTH_VERIFICATION_REQUIRED: StrongAuthVerificationRequiredState,
    StateKind.V2_SIGN_IN_AFTER_SIGN_UP: SignInAfterSignUpState,
    StateKind.V2_SIGN_IN_AFTER_RESET_PASSWORD: SignInAfterResetPasswordState,
}

STEP_CLASSES = tuple(_CLASSES.values())
