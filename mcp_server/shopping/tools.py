"""The six ShoppingBench sandbox tools (SPEC §1.3) as plain Python, shared by the MCP server, the TUI and tests.

Each tool is declared once: an `EpisodeTool` (mcp_server.toolbox) with a pydantic model of its arguments (whose JSON
Schema is what MCP clients see), and a method of `Sandbox`. `Sandbox.call(name, arguments)` validates and runs a
call; every malformed call — unknown tool, wrong types, a bad page or price, unknown ids, an empty query — raises
`ToolCallError`, whose message is an observation the agent can act on. The sandbox knows the world, never the task,
so no output can reveal a target.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, FiniteFloat, WithJsonSchema

from benchmarks.shoppingbench.schema import SERVICES, Product, Voucher
from benchmarks.shoppingbench.voucher import quote, within_budget
from mcp_server.shopping.calculator import CalculationError, evaluate
from mcp_server.shopping.search.backends import ProductBackend, WebSearchBackend
from mcp_server.shopping.search.product_index import CARD_FIELDS, MAX_PAGE, QueryTooLongError
from mcp_server.shopping.tool_outputs import CartQuote, ProductCard, ProductInformation, WebResult
from mcp_server.toolbox import Arguments, Effect, EpisodeTool, ToolCallError, tool_table, validate_arguments

if TYPE_CHECKING:
    from mcp_server.shopping.world import World

SORTS = ("priceasc", "pricedesc", "order", "default")
MAX_QUERY_CHARS = 1000
"""Longest `q` of find_product and web_search (real queries are a few words; this also keeps a query under Lucene's
1,024-clause limit, one clause per distinct word), and longest product_ids string."""
MAX_IDS_PER_CALL = 20
"""Most product_ids one view_product_information, calculate or recommend_product call may name."""
MAX_TEXT_CHARS = 200
"""Longest shop_id, price or service string."""
MAX_RESULTS = 20
FIND_FIELDS = CARD_FIELDS
"""What find_product shows of each hit: the product index's cards (one list, so the two cannot drift apart)."""

Query = Annotated[str, Field(max_length=MAX_QUERY_CHARS)]
ProductIds = Annotated[str, Field(max_length=MAX_QUERY_CHARS)]
ShortText = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
"""Each limit is declared once, on the argument's type (numbers' ranges on their Field): the schema advertises it
and validation refuses what is outside it, in words mcp_server.toolbox chooses for the agent. On an optional
parameter pydantic states `maxLength` next to `type: string` inside the nullable `anyOf`, as strict validators
(Ajv's strictTypes; qwen-code's too) require: they refuse `maxLength` beside an `anyOf` with no type."""
VIEW_FIELDS = (
    "product_id", "title", "price", "shop_id", "short_description", "description", "sku_options", "attributes",
    "service",
)


# ---- arguments: one model per tool; field descriptions are the parameter docs agents read ----------------------


class FindProductArgs(Arguments):
    q: Query = Field(
        description='The query used to search for products, e.g. "nike shoes", "backpack for college".',
    )
    page: int = Field(description="Result page, 1 to 5 (10 products per page, 50 at most in all).", ge=1, le=MAX_PAGE)
    shop_id: ShortText | None = Field(None, description="Only products of this shop (exact shop_id).")
    price: ShortText | None = Field(
        None, description='Price range, bounds inclusive: "lo-hi", "lo-" (at least lo) or "-hi" (at most hi).'
    )
    # The schema lists the four values; any other value is ignored (relevance order), as the reference does (SPEC).
    sort: Annotated[str, WithJsonSchema({"type": "string", "enum": list(SORTS)})] | None = Field(
        None,
        description="priceasc (price ascending), pricedesc (price descending), order (sales volume descending) or "
        "default (relevance). Sorting reorders the 50 most relevant matches.",
    )
    service: ShortText | None = Field(
        None,
        description="Comma-joined services every product must offer: official (LazMall: authenticity guarantee, "
        "free returns), freeShipping, COD (cash on delivery), flashsale (limited-time discounts); default = none.",
    )


class ViewProductInformationArgs(Arguments):
    product_ids: ProductIds = Field(
        description=f"Comma-separated product_ids to look up (at most {MAX_IDS_PER_CALL})."
    )


class CalculateArgs(Arguments):
    expression: str | None = Field(
        None, description='Arithmetic to evaluate, e.g. "(120 + 89.5) * 0.8". Numbers, + - * / // % ** and ().'
    )
    product_ids: ProductIds | None = Field(
        None,
        description=f"Cart form: comma-separated product_ids whose list prices are added up (at most "
        f"{MAX_IDS_PER_CALL}).",
    )
    voucher_type: Literal["platform", "shop"] | None = Field(
        None, description="Cart form: platform (applies to all products) or shop (only when all come from one shop)."
    )
    # Voucher amounts are FiniteFloat: "NaN" and "Infinity" are refused (a NaN threshold would let any cart reach it).
    threshold: FiniteFloat | None = Field(
        None, description="Cart form: the voucher needs a total of at least this much."
    )
    discount_type: Literal["fixed", "percentage"] | None = Field(None, description="Cart form: fixed or percentage.")
    face_value: FiniteFloat | None = Field(None, description="Cart form, fixed vouchers: the amount taken off.")
    discount: FiniteFloat | None = Field(
        None, description="Cart form, percentage vouchers: the discount as a fraction (25% is 0.25)."
    )
    cap: FiniteFloat | None = Field(
        None, description="Cart form, percentage vouchers: the most the discount can take off."
    )
    budget: FiniteFloat | None = Field(None, description="Cart form, optional: say whether the cart fits this budget.")


class WebSearchArgs(Arguments):
    q: Query = Field(description='The query used to search for information, e.g. "PopMart latest news".')
    max_results: int = Field(10, description=f"How many results to return, 1 to {MAX_RESULTS}.", ge=1, le=MAX_RESULTS)


class RecommendProductArgs(Arguments):
    product_ids: ProductIds = Field(
        description="Comma-separated product_ids: the one best product, or N products in the order the user named "
        "them (all from one shop when the user wants one shop). Only the last recommendation counts. At most "
        f"{MAX_IDS_PER_CALL}."
    )


class TerminateArgs(Arguments):
    status: Literal["success", "failure"] = Field(description="How the task ended: success or failure.")


SHOPPING_TOOLS: dict[str, EpisodeTool] = tool_table(
    EpisodeTool(
        "find_product",
        "Search the catalog (BM25) and return up to 10 products per page, each with product_id, shop_id, title, "
        "price, service and sold_count. Filters (shop_id, price, service) keep the 50 most relevant matches; "
        "sort then reorders those 50.",
        FindProductArgs,
        observation=list[ProductCard],
    ),
    EpisodeTool(
        "view_product_information",
        "Fetch full information for product_ids: title, price, shop, descriptions, SKU options and attributes.",
        ViewProductInformationArgs,
        observation=list[ProductInformation],
    ),
    EpisodeTool(
        "calculate",
        "Evaluate arithmetic safely (give `expression`), or price a cart under a voucher (give `product_ids` and "
        "the voucher fields): returns the list total, whether the voucher applies and why, and the total after it.",
        CalculateArgs,
        observation=float | CartQuote,
    ),
    EpisodeTool(
        "web_search",
        "Search the web for information and return results as {url, title, content}.",
        WebSearchArgs,
        observation=list[WebResult],
        open_world=True,
    ),
    EpisodeTool(
        "recommend_product",
        "Recommend products to the user. Only the last recommendation counts.",
        RecommendProductArgs,
        read_only=False,
        effect=lambda arguments: Effect(recorded={"recommended": arguments["product_ids"]}),
    ),
    EpisodeTool(
        "terminate",
        "End the task and declare how it went; the episode is over after this.",
        TerminateArgs,
        read_only=False,
        effect=lambda arguments: Effect(ends="terminated", recorded={"terminate_status": arguments["status"]}),
    ),
)
"""The sandbox tools, in the order clients list them. `recommend_product` keeps the last recommendation for the
end event (as passed: the scorer reads the string exactly); `terminate` ends the episode."""


def parse_arguments(tool: str, arguments: Any) -> Arguments:
    """Validate a call's arguments, turning pydantic's errors into one sentence per problem."""
    spec = SHOPPING_TOOLS.get(tool)
    if spec is None:
        raise ToolCallError(f"unknown tool {tool!r}; the tools are: {', '.join(SHOPPING_TOOLS)}")
    return validate_arguments(tool, spec.arguments, arguments)


def check_id_count(tool: str, ids: list[str]) -> None:
    if len(ids) > MAX_IDS_PER_CALL:
        raise ToolCallError(
            f"{tool}: at most {MAX_IDS_PER_CALL} product_ids per call (got {len(ids)}); split them over several calls"
        )


# ---- the tools ---------------------------------------------------------------------------------------------------


def parse_price(price: str) -> tuple[float | None, float | None]:
    """ "lo-hi", "lo-" or "-hi" → (lo, hi) with open sides as None."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)?\s*-\s*(\d+(?:\.\d+)?)?\s*", price)
    if match is None or match.groups() == (None, None):
        raise ToolCallError(f'find_product: price must look like "100-500", "100-" or "-500", got {price!r}')
    low, high = (None if group is None else float(group) for group in match.groups())
    if low is not None and high is not None and low > high:
        raise ToolCallError(f"find_product: price lower bound {low:g} is above the upper bound {high:g}")
    return low, high


def parse_services(service: str | None) -> tuple[str, ...]:
    """Known service flags only; unknown values and "default" are ignored, as the reference does."""
    if not service:
        return ()
    return tuple(dict.fromkeys(part.strip() for part in service.split(",") if part.strip() in SERVICES))


def split_ids(product_ids: str) -> list[str]:
    """Ids for looking products up; whitespace around each id is forgiven here (scoring reads the raw string)."""
    return [part.strip() for part in product_ids.split(",") if part.strip()]


class Sandbox:
    """The tools over one world. Stateless between calls: episode state (recommendation, end) lives in Episode."""

    def __init__(
        self, products: ProductBackend, knowledge: WebSearchBackend | None, web_search: WebSearchBackend | None = None
    ) -> None:
        """`knowledge`: the world's offline corpus, which answers web_search unless a `web_search` backend is given
        (neither: a sandbox whose web_search cannot be called, e.g. for pricing carts only)."""
        self.products = products
        self.web = web_search if web_search is not None else knowledge

    @classmethod
    def for_world(cls, world: World) -> Sandbox:
        """The tools over a world: its catalog index, and its web search (the offline corpus or a live one)."""
        return cls(world.products, world.knowledge, world.web_search())

    def call(self, tool: str, arguments: Any) -> Any:
        """Run one tool call and return its observation (JSON-able); raises ToolCallError for a malformed call."""
        args = parse_arguments(tool, arguments)
        return getattr(self, tool)(args)

    def find_product(self, args: FindProductArgs) -> list[dict[str, Any]]:
        if not args.q.strip():
            raise ToolCallError("find_product: q is empty; say what to search for")
        low, high = parse_price(args.price) if args.price and args.price.strip() else (None, None)
        try:
            hits = self.products.find(
                args.q,
                page=args.page,
                shop_id=args.shop_id or None,
                price_min=low,
                price_max=high,
                services=parse_services(args.service),
                sort=args.sort if args.sort in SORTS else "default",
            )
        except QueryTooLongError as error:
            raise ToolCallError(f"find_product: {error}") from None
        return [{key: hit[key] for key in FIND_FIELDS if key in hit} for hit in hits]

    def view_product_information(self, args: ViewProductInformationArgs) -> list[dict[str, Any]]:
        ids = split_ids(args.product_ids)
        if not ids:
            raise ToolCallError("view_product_information: product_ids is empty; give comma-separated product_ids")
        check_id_count("view_product_information", ids)
        found = self.lookup(ids)
        if not found:
            raise ToolCallError(f"view_product_information: no product has the id(s) {', '.join(ids)}")
        return [_project(found[pid], VIEW_FIELDS) for pid in dict.fromkeys(ids) if pid in found]

    def calculate(self, args: CalculateArgs) -> Any:
        if args.expression is not None and args.product_ids is not None:
            raise ToolCallError("calculate: give either expression or product_ids (a cart), not both")
        if args.expression is not None:
            try:
                return evaluate(args.expression)
            except CalculationError as error:
                raise ToolCallError(f"calculate: {error}") from None
        if args.product_ids is None:
            raise ToolCallError("calculate: give an expression, or product_ids and a voucher to price a cart")
        return self._price_cart(args)

    def _price_cart(self, args: CalculateArgs) -> dict[str, Any]:
        ids = split_ids(args.product_ids or "")
        if not ids:
            raise ToolCallError("calculate: product_ids is empty")
        check_id_count("calculate", ids)
        found = self.lookup(ids)
        unknown = [pid for pid in ids if pid not in found]
        if unknown:
            raise ToolCallError(f"calculate: no product has the id(s) {', '.join(unknown)}")
        items = [{"product_id": pid, "shop_id": found[pid].shop_id, "price": found[pid].price} for pid in ids]
        prices = [found[pid].price for pid in ids]
        shops = [found[pid].shop_id for pid in ids]
        result: dict[str, Any] = {"items": items, "list_total": round(sum(prices), 2)}
        voucher = _voucher(args)
        if voucher is not None:
            priced = quote(prices, shops, voucher)
            result |= {
                "voucher_applies": priced.voucher_applies,
                "reason": priced.reason,
                "total_after_voucher": round(priced.total_after_voucher, 2),
            }
        if args.budget is not None:
            fits = within_budget(prices, shops, voucher) if voucher else sum(prices) <= args.budget
            result["within_budget"] = fits
        return result

    def web_search(self, args: WebSearchArgs) -> list[dict[str, Any]]:
        if not args.q.strip():
            raise ToolCallError("web_search: q is empty; say what to search for")
        if self.web is None:  # a programming error, not the agent's (before: AttributeError on None)
            raise RuntimeError("this sandbox was built without a web search backend (knowledge or web_search)")
        return self.web.search(args.q, max_results=args.max_results)

    def recommend_product(self, args: RecommendProductArgs) -> str:
        if not args.product_ids.strip():
            raise ToolCallError("recommend_product: product_ids is empty; give the product_ids to recommend")
        ids = args.product_ids.split(",")  # no trimming: the scorer reads the string exactly like this
        check_id_count("recommend_product", ids)
        text = f"Having recommended the products to the user: {args.product_ids}."
        found = self.lookup(ids)
        unknown = [pid for pid in ids if pid not in found]
        if unknown:
            text += f" Note: no product has the id(s) {', '.join(repr(pid) for pid in unknown)}."
        return text

    def terminate(self, args: TerminateArgs) -> str:
        return f"The interaction has been completed with status: {args.status}"

    def lookup(self, ids: list[str]) -> dict[str, Product]:
        return self.products.get(list(dict.fromkeys(ids)))


def _project(product: Product, fields: tuple[str, ...]) -> dict[str, Any]:
    data = product.model_dump()
    return {key: data.get(key) for key in fields}


def _voucher(args: CalculateArgs) -> Voucher | None:
    """The voucher named by the cart form's fields, or None when none was given; half a voucher is an error."""
    given = {
        name: getattr(args, name)
        for name in ("voucher_type", "threshold", "discount_type", "face_value", "discount", "cap")
        if getattr(args, name) is not None
    }
    if not given:
        return None
    missing = [name for name in ("voucher_type", "threshold", "discount_type") if name not in given]
    if args.discount_type == "fixed" and args.face_value is None:
        missing.append("face_value")
    if args.discount_type == "percentage" and args.discount is None:
        missing.append("discount")
    if missing:
        raise ToolCallError(f"calculate: the voucher needs {', '.join(missing)}")
    if args.discount is not None and not 0 < args.discount <= 1:
        raise ToolCallError(f"calculate: discount is a fraction between 0 and 1 (25% is 0.25), got {args.discount:g}")
    budget = args.budget if args.budget is not None else sys.float_info.max  # no budget: the largest finite amount
    return Voucher(budget=budget, **given)
