"""Voucher arithmetic (SPEC §1.4), shared by the `calculate` tool and the budget score."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.shoppingbench.schema import Voucher


@dataclass(frozen=True)
class VoucherQuote:
    """What a basket costs under a voucher."""

    list_total: float
    voucher_applies: bool
    total_after_voucher: float
    reason: str
    """Why the voucher does or does not apply, in words an agent can act on."""


def quote(prices: list[float], shop_ids: list[str], voucher: Voucher) -> VoucherQuote:
    """Price a basket: the voucher applies when the basket reaches the threshold (≥, as the reference does) and,
    for a shop voucher, every product comes from one shop. Percentage discounts are capped."""
    total = float(sum(prices))
    if voucher.voucher_type == "shop" and len(set(shop_ids)) > 1:
        return VoucherQuote(total, False, total, "a shop voucher needs every product from the same shop")
    if total < voucher.threshold:
        return VoucherQuote(total, False, total, f"the total {total:g} is below the threshold {voucher.threshold:g}")
    if voucher.discount_type == "fixed":
        after = total - float(voucher.face_value or 0.0)
    else:
        rate = float(voucher.discount or 0.0)
        cap = float("inf") if voucher.cap is None else float(voucher.cap)
        after = max(total * (1 - rate), total - cap)
    return VoucherQuote(total, True, after, "the voucher applies")


def within_budget(prices: list[float], shop_ids: list[str], voucher: Voucher) -> bool:
    """The budget score: the list total within budget passes outright; otherwise the voucher must bring it there."""
    if sum(prices) <= voucher.budget:
        return True
    result = quote(prices, shop_ids, voucher)
    return result.voucher_applies and result.total_after_voucher <= voucher.budget
