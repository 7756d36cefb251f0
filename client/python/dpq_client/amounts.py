"""Exact epsilon amounts.

The ledger counts epsilon in integer units of 10^-12 (docs/privacy.md);
responses carry each amount twice: a double (the nearest double, for
convenience) and an exact int64 sibling named `<field>_units`. The SDK
reports amounts as decimal.Decimal built from the units, so a budget of
20 - 1 - 1 - 1 - 0.9 - 0.5 reads Decimal('15.6'), never 15.600000000000001.
"""

from decimal import Decimal

# 1 unit = 10^-12 epsilon.
UNITS_PER_EPSILON = 10**12


def units_to_decimal(units: int) -> Decimal:
    """Exact Decimal of `units` (an integer count of 10^-12 epsilon).

    Trailing zeros are dropped: 15600000000000 -> Decimal('15.6'),
    3000000000000 -> Decimal('3'), 1 -> Decimal('1E-12') (str() of that is
    '1E-12'; format(d, 'f') gives '0.000000000001').
    """
    d = Decimal(int(units)).scaleb(-12)
    # normalize() drops trailing zeros but writes 3 as '3' and 100 as
    # '1E+2'; quantize to an integer first for whole numbers.
    if d == d.to_integral_value():
        return d.quantize(Decimal(1))
    return d.normalize()


def epsilon_field(message, name: str) -> Decimal:
    """The exact amount of field `name` of a response message.

    Reads `<name>_units` when the message type has that field. Fallback
    while a server or the .proto files predate the units fields: the
    double, rounded to the nearest unit (exact for amounts below about
    9000, where a double still resolves 10^-12). The fallback is also used
    when the units field is present but 0 while the double is not (an
    older server that does not fill it).
    """
    as_double = getattr(message, name)
    units_name = name + "_units"
    if units_name in message.DESCRIPTOR.fields_by_name:
        units = getattr(message, units_name)
        if units != 0 or as_double == 0:
            return units_to_decimal(units)
    return units_to_decimal(round(as_double * UNITS_PER_EPSILON))


def format_epsilon(d: Decimal) -> str:
    """Plain decimal text of an amount: '15.6', '3', '0.000000000001'."""
    return format(d, "f")
