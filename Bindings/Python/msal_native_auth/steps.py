"""The steps of a flow as plain values: ``Step`` and its kinds, the ``StateKind`` and ``Scenario`` a
step names, the methods and attributes it offers. What a step carries to go on (``FlowState``,
``Account``) and how a library result becomes a step: results.py."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, List, Optional

if TYPE_CHECKING:  # for the annotations only: results.py imports this module
    from .results import Account, FlowState


class StateKind(enum.IntEnum):
    """Which step of which flow a FlowState is (``FlowState.kind``; the C interface's msal_na_state_type)."""

    SIGN_IN_CODE_REQUIRED = 1
    SIGN_IN_PASSWORD_REQUIRED = 2
    SIGN_UP_CODE_REQUIRED = 3
    SIGN_UP_PASSWORD_REQUIRED = 4
    SIGN_UP_ATTRIBUTES_REQUIRED = 5
    SIGN_IN_AFTER_SIGN_UP = 6
    RESET_PASSWORD_CODE_REQUIRED = 7
    RESET_PASSWORD_REQUIRED = 8
    SIGN_IN_AFTER_RESET_PASSWORD = 9
    AWAITING_MFA = 10
    MFA_REQUIRED = 11
    REGISTER_STRONG_AUTH = 12
    REGISTER_STRONG_AUTH_VERIFICATION_REQUIRED = 13
    # Native auth V2 (experimental; v2.py): each kind is a step class of its own there.
    V2_CODE_REQUIRED = 20
    V2_PASSWORD_REQUIRED = 21
    V2_NEW_PASSWORD_REQUIRED = 22
    V2_ATTRIBUTES_REQUIRED = 23
    V2_AUTH_METHOD_SELECTION_REQUIRED = 24
    V2_MFA_VERIFICATION_REQUIRED = 25
    V2_STRONG_AUTH_REGISTRATION_REQUIRED = 26
    V2_STRONG_AUTH_VERIFICATION_REQUIRED = 27
    V2_SIGN_IN_AFTER_SIGN_UP = 28
    V2_SIGN_IN_AFTER_RESET_PASSWORD = 29


class Scenario(enum.IntEnum):
    """Which native auth V2 flow a step or sign-in belongs to (experimental; MSAL's
    MSALNativeAuthFlowScenario). UNKNOWN for V1 flows."""

    UNKNOWN = 0
    SIGN_UP = 1
    SIGN_IN = 2
    PASSWORD_RESET = 3


@dataclass(frozen=True)
class AuthMethod:
    """A second factor or a kind of method to register: pass it (or its ``id``) to ``request_challenge``
    or ``register_method``. ``channel`` is "email" or "sms"; ``login_hint`` the masked contact."""

    id: str
    challenge_type: str
    channel: str
    login_hint: Optional[str] = None


@dataclass(frozen=True)
class RequiredAttribute:
    """A sign-up attribute the service asks for (``AttributesRequired.attributes``)."""

    name: str
    type: str = ""
    required: bool = False
    regex: Optional[str] = None


@dataclass
class Step:
    """What a flow step produced. Close it (or use ``with``) to free a state you do not continue."""

    state: Optional["FlowState"] = None

    def close(self) -> None:
        """Frees the state (if any); a step you continue is closed by the ``with`` around it."""
        if self.state is not None:
            self.state.close()

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class SignedIn(Step):
    """The user is signed in: ``account`` holds the tokens. No state follows. ``scenario``: the V2
    flow that signed in (a sign-up or reset ends here after its ``sign_in``); UNKNOWN for V1."""

    account: Optional["Account"] = None
    scenario: Scenario = Scenario.UNKNOWN


@dataclass
class CodeRequired(Step):
    """A one-time code was sent to ``sent_to`` over ``channel`` (``code_length`` digits): pass it to
    ``state.submit_code``, or ``state.resend_code()`` for a new one."""

    sent_to: str = ""
    channel: str = ""
    code_length: int = 0


@dataclass
class PasswordRequired(Step):
    """The service asks for a password (sign-in), or a new one (sign-up, reset): ``state.submit_password``."""


@dataclass
class AttributesRequired(Step):
    """Sign-up needs these ``attributes``: ``state.submit_attributes({name: value, ...})``."""

    attributes: List[RequiredAttribute] = field(default_factory=list)


@dataclass
class AttributesInvalid(Step):
    """The service refused the attributes named in ``attribute_names``; correct them on ``state`` when
    there is one, else start the sign-up again."""

    attribute_names: List[str] = field(default_factory=list)


@dataclass
class SignUpCompleted(Step):
    """The account exists: ``state.sign_in()`` signs the new user in without the password."""


@dataclass
class ResetPasswordCompleted(Step):
    """The password was changed: ``state.sign_in()`` signs the user in without it."""


@dataclass
class MFARequired(Step):
    """A second factor is needed: ``state.request_challenge(one of auth_methods)`` sends a code."""

    auth_methods: List[AuthMethod] = field(default_factory=list)


@dataclass
class RegistrationRequired(Step):
    """The user must register a strong-auth method first: ``state.register_method(one of auth_methods,
    contact)`` sends a code to the new contact."""

    auth_methods: List[AuthMethod] = field(default_factory=list)
