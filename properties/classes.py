"""Oracle mode's classes of outcome (docs/ORACLE.md, Classes): what happened to one program
put to both implementations. Shared by properties/oracle.py and properties/signatures.py."""

AGREE = "agree"
WRONG_VALUE = "wrong-value"
IMPL_ERROR = "implementation-error"
HANG = "hang"
REJECTS_VALID = "rejects-valid"
ACCEPTS_INVALID = "accepts-invalid"
CLASSES = (AGREE, WRONG_VALUE, IMPL_ERROR, HANG, REJECTS_VALID, ACCEPTS_INVALID)
FAILURES = CLASSES[1:]
