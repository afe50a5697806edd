"""The words generated instructions are made of: how each detail, service and price bound is said, the product's
name in a shopper's words, and the sentences around a request (openers, closings, context fitting a category).

Every constraint form has a fixed lead ("in size", "made by", "with ... flavor") so reading.parse_item can find it
and read its value back; values are said the way people say them (phrasing.spoken). Nothing here is a label ("name:
value"): a detail without a natural form is not stated at all (phrasing.sayable).
"""

from __future__ import annotations

from benchmarks.shoppingbench.worldgen import source_digest

# --- prices and services --------------------------------------------------------------------------------------------

LESS_THAN_STRICT = ("under {h} PHP", "priced below {h} PHP", "costing less than {h} pesos")
LESS_THAN = ("priced at most {h} PHP", "costing up to {h} PHP")
GREATER_THAN_STRICT = ("priced above {l} PHP", "priced above {l} PHP", "priced over {l} PHP",
                       "costing more than {l} pesos", "costing more than {l} PHP", "with a price above {l} PHP",
                       "costing over {l} pesos", "with a price over {l} PHP", "priced above {l} pesos")
GREATER_THAN = ("priced at {l} PHP or more", "for at least {l} PHP")
BETWEEN = ("priced between {l} and {h} PHP", "priced from {l} to {h} PHP", "priced from {l} to {h} PHP",
           "with a price between {l} and {h} PHP", "costing between {l} and {h} pesos",
           "with a price range from {l} to {h} pesos", "priced between {l} and {h} pesos")
"""Price bounds as the official set words them ("priced above" by far the commonest, then "costing more than",
"with a price above"; now and then pesos); a form listed twice is drawn twice as often. The official set bounds a
price from below or on both sides, never from above only: "less than" forms are read back but only a rare sharpened
task says them."""

SERVICE_PHRASES: dict[str, tuple[str, ...]] = {
    "official": ("with LazMall service", "that comes with LazMall", "available on LazMall",
                 "available with LazMall service", "with LazMall perks like guaranteed authenticity",
                 "with LazMall perks like guaranteed authenticity and easy returns", "from LazMall"),
    "freeShipping": ("with free shipping", "with free shipping", "with free delivery", "that comes with free shipping",
                     "with complimentary shipping", "that comes with complimentary shipping"),
    "COD": ("with cash on delivery", "with cash on delivery", "that supports cash on delivery",
            "that supports cash on delivery", "available for cash on delivery", "available with cash on delivery",
            "that can be paid for with cash on delivery"),
    "flashsale": ("with LazFlash deals", "available with LazFlash deals", "available with a LazFlash deal",
                  "with a LazFlash promo"),
}
"""Each service in the official set's own commonest words (its most frequent forms, counted over its 750
instructions)."""
SERVICE_NOUNS: dict[str, tuple[str, ...]] = {
    "official": ("LazMall service", "LazMall perks"),
    "freeShipping": ("free shipping", "free delivery", "complimentary shipping"),
    "COD": ("cash on delivery",), "flashsale": ("LazFlash deals", "a LazFlash deal"),
}
"""Services said together after one "with" ("with free delivery and cash on delivery")."""

# --- details (attribute and SKU pairs) ------------------------------------------------------------------------------

ATTRIBUTIVE = frozenset(("pack", "roll", "diameter", "length", "battery", "bottle", "chain", "blade", "size", "tip",
                         "point", "version", "motor", "capacity"))
"""Nouns a measure stands before in a template ("the 500 gram pack"): its unit is said in the singular there."""

KEY_TEMPLATES: dict[str, tuple[str, ...]] = {
    "color_family": ("in {v}", "in {v} color", "in the color {v}"),
    "light_color": ("with {v} light", "that lights up {v}"),
    "size": ("in size {v}", "in size {v}", "sized {v}"),
    "material": ("made of {v}", "made from {v}"),
    "clothing_material": ("in {v} fabric", "made from {v} fabric"),
    "sole_material": ("with a {v} sole", "with {v} soles"),
    "flavor": ("with {v} flavor", "in the {v} flavor", "in {v} flavor"),
    "scent": ("with a {v} scent", "in the {v} scent", "that smells of {v}"),
    "brand": ("made by {v}", "by {v}", "from the brand {v}"),
    "origin": ("made in {v}", "sourced from {v}"),
    "place": ("themed around {v}", "featuring {v}", "with a {v} design"),
    "year": ("with {v} printed on it", "that says {v}"),
    "name": ("with the name {v}", "that spells {v}"),
    "roast_level": ("in a {v}", "with a {v} profile"),
    "net_weight": ("in the {v} pack", "in a {v} pack", "weighing {v}"),
    "volume": ("in a {v} bottle",),
    "capacity": ("with a {v} capacity", "that holds {v}"),
    "tea_bags": ("with {v} in the box", "in a box of {v}"),
    "set_pieces": ("in a pack of {v}", "in a set of {v}", "with {v} per pack"),
    "pieces": ("with {v} in total", "that has {v}"),
    "colors": ("with {v} included", "that comes in {v}"),
    "cable_length": ("that is {v} long",),
    "strip_length": ("in a {v} roll", "measuring {v}"),
    "chain_length": ("with a {v} chain",),
    "battery_capacity": ("with a {v} battery", "rated at {v}"),
    "fan_size": ("with a {v} blade", "in the {v} size"),
    "plush_size": ("about {v} tall", "that stands {v} tall"),
    "diameter": ("with a {v} diameter", "that is {v} across"),
    "thickness": ("that is {v} thick",),
    "compatible_model": ("compatible with the {v}", "that fits the {v}"),
    "connector": ("with a {v} connector", "with a {v} plug"),
    "connectivity": ("with {v} connectivity", "that connects via {v}"),
    "max_power": ("rated at {v} max", "with {v} max output"),
    "output_ports": ("with {v} output ports", "that has {v} output ports"),
    "voltage": ("that runs on {v}",),
    "wattage": ("with a {v} motor", "rated at {v} power"),
    "speed_settings": ("with {v} speed settings", "that has {v} speeds"),
    "laptop_size": ("that fits a {v} laptop", "for a {v} laptop"),
    "stationery_line_point": ("with a {v} tip", "with a {v} point"),
    "fa_pattern": ("with a {v} pattern", "in a {v} design"),
    "neckline": ("with a {v} neckline", "with a {v} collar"),
    "dress_length": ("in a {v} length", "cut to {v} length"),
    "fit_type": ("with a {v} cut", "in a {v} cut"),
    "grain_type": ("with {v} kernels", "with a {v} kernel"),
    "tea_type": ("made from {v} tea leaves", "brewed from {v} tea"),
    "fragrance_family": ("with a {v} character", "from the {v} family"),
    "benefits": ("with a {v} effect", "that is {v}"),
    "skin_type": ("suited to {v} skin",),
    "shoes_closuretype": ("with a {v} closure", "in a {v} style"),
    "age_range": ("suited to ages {v}", "for ages {v}"),
    "breed_size": ("suited to {v} dogs",),
    "burn_time": ("that burns for {v}", "with a {v} burn time"),
    "wax_type": ("poured from {v}", "made with {v}"),
    "type_of_inks": ("with {v} ink", "using {v} ink"),
    "types_of_teats": ("with a {v} teat", "with {v} teats"),
    "grip_size": ("with a {v} grip", "in grip size {v}"),
    "ball_size": ("that is a {v}",),
    "visor": ("with a {v} visor", "that has a {v} visor"),
    "finish": ("with a {v} finish", "in a {v} finish"),
    "control": ("with {v} control", "controlled by a {v}"),
    "theme": ("with a {v} theme", "in the {v} theme"),
    "level": ("at {v} level", "for {v} learners"),
    "music_accessories_function": ("meant for {v}", "used for {v}"),
    "activity_type": ("for playing {v}", "meant for {v} games"),
    "coating": ("with a {v} coating",),
    "inner_pot": ("with a {v} inner pot",),
    "lid_type": ("with a {v}",),
    "certification": ("with {v} certification",),
    "make": ("that fits a {v}",),
    "sport": ("used in {v}",),
    "animal": ("shaped like a {v}",),
    "instrument": ("for a {v}",),
    "language": ("for learning {v}",),
}
"""How each detail is stated around its spoken value; a key not listed here is not stated (no label-style form)."""
SPARE_TEMPLATES: dict[str, tuple[str, ...]] = {"chain_length": ("with a {v} length",)}
"""Forms said only where every usual one would name the product's noun again ("a titanium chain with a 16-inch
length", not "... with a 16-inch chain")."""


NATURAL: dict[tuple[str, str], str] = {
    ("output_ports", "1"): "with a single output port",
    ("caffeine", "decaf"): "decaf", ("caffeine", "caffeine free"): "caffeine-free",
    ("material", "gold plated"): "gold-plated",
    ("caffeine", "regular"): "with regular caffeine",
    ("dietary_needs", "gluten free"): "gluten-free", ("dietary_needs", "vegan"): "suitable for vegans",
    ("stove_type", "induction"): "that works on induction", ("stove_type", "all stoves"): "that works on any stove",
    ("stove_type", "gas"): "for a gas stove",
    ("power_source", "cordless"): "cordless", ("power_source", "corded"): "with a power cord",
    ("power_source", "battery"): "battery-powered", ("power_source", "usb"): "powered by USB",
    ("power_source", "plug-in"): "that plugs into the wall",
    ("fast_charging", "yes"): "that supports fast charging", ("fast_charging", "no"): "without fast charging",
    ("timer", "yes"): "that has a timer", ("timer", "no"): "without a timer",
    ("noise_cancelling", "active"): "with active noise cancelling",
    ("noise_cancelling", "passive"): "with passive noise isolation",
    ("noise_cancelling", "none"): "without noise cancelling",
    ("book_cover", "hardcover"): "in hardcover", ("book_cover", "paperback"): "in paperback",
    ("gender", "women"): "for women", ("gender", "men"): "for men", ("gender", "unisex"): "for men and women",
    ("life_stage", "puppy"): "for puppies", ("life_stage", "senior"): "for senior dogs",
    ("life_stage", "adult"): "for adult dogs",
    ("level", "beginner"): "for beginners", ("level", "advanced"): "for advanced learners",
    ("skin_type", "oily"): "for oily skin", ("skin_type", "sensitive"): "for sensitive skin",
    ("skin_type", "dry"): "for dry skin", ("skin_type", "all skin types"): "for all skin types",
    ("coating", "non-stick"): "with a non-stick coating", ("coating", "uncoated"): "without any coating",
    ("certification", "dot"): "DOT certified", ("certification", "ece"): "ECE certified",
    ("fit_type", "oversized"): "with an oversized fit", ("fit_type", "slim fit"): "with a slim fit",
    ("fit_type", "regular fit"): "with a regular fit",
    ("kit", "tool only"): "without a battery", ("kit", "with 1 battery"): "with one battery",
    ("kit", "with 2 batteries"): "with two batteries", ("age_range", "adult"): "for adults",
    ("age_range", "0+"): "safe from birth",
}
"""(key, value) pairs a shopper states as a quality rather than a field; only the product page shows them."""

# --- the product in a shopper's words ---------------------------------------------------------------------------

NOUN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "Ground Coffee": ("coffee powder", "ground coffee", "coffee"), "Coffee Beans": ("whole bean coffee", "coffee"),
    "Travel Souvenir Fridge Magnet": ("souvenir fridge magnet", "fridge magnet"),
    "Fridge Magnet": ("refrigerator magnet", "magnet"), "Souvenir Fridge Magnet": ("fridge magnet", "souvenir magnet"),
    "Canvas Wall Art": ("wall art", "canvas print"), "Framed Wall Art": ("framed print", "wall art"),
    "Wall Art Print": ("art print", "wall art"), "Birthday T-Shirt": ("birthday shirt", "T-shirt"),
    "Birthday Tee": ("birthday T-shirt", "tee"), "Birthday Shirt": ("birthday tee", "shirt"),
    "Name Necklace": ("necklace", "personalized necklace"), "Name Pendant Necklace": ("name pendant", "necklace"),
    "Nameplate Necklace": ("name necklace", "necklace"),
    "3-in-1 Instant Coffee": ("instant coffee mix", "coffee sachets"), "Potato Chips": ("potato crisps",),
    "Banana Chips": ("dried banana chips",), "Cassava Chips": ("cassava crisps",),
    "Corn Chips": ("corn snack",), "Tea Bags": ("bagged tea", "tea"), "Loose Leaf Tea": ("loose tea",),
    "Iced Tea Powder": ("iced tea mix",), "Jasmine Rice": ("fragrant rice",), "Brown Rice": ("unpolished rice",),
    "Dinorado Rice": ("dinorado",), "Eau de Parfum": ("perfume", "parfum"),
    "Body Mist": ("body spray",), "Eau de Toilette": ("toilette spray", "perfume"), "Cologne": ("cologne spray",),
    "Bar Soap": ("soap bar",), "Body Wash": ("shower soap",), "Whitening Soap": ("skin whitening soap",),
    "Shower Gel": ("bath gel",), "Face Cream": ("facial cream",), "Moisturizer": ("moisturising cream",),
    "Night Cream": ("overnight cream",), "Sunscreen Lotion": ("sunblock",), "Phone Case": ("phone cover",),
    "Silicone Case": ("soft phone case",), "Shockproof Cover": ("rugged phone case",),
    "USB C Cable": ("type-c cord",), "Lightning Cable": ("iPhone charging cord",),
    "Micro USB Cable": ("micro USB cord",),
    "Fast Charging Cable": ("quick charge cable",), "Power Bank": ("portable charger",),
    "Magnetic Power Bank": ("MagSafe battery pack",), "Wireless Earbuds": ("true wireless earphones",
                                                                           "TWS earbuds"),
    "Bluetooth Headphones": ("wireless headset",), "Wired Earphones": ("wired earphones",),
    "T-Shirt": ("tee", "shirt"), "Oversized Tee": ("loose shirt",), "Polo Shirt": ("collared shirt",),
    "Crew Neck Shirt": ("round neck tee",), "Maxi Dress": ("long dress",), "Midi Dress": ("knee-length dress",),
    "Floral Dress": ("flower print dress",), "Shirt Dress": ("button-down dress",),
    "Basketball Jersey": ("ball jersey",), "Team Jersey": ("team uniform top",),
    "Jersey Set": ("jersey and shorts set",), "Running Shoes": ("runners",),
    "Sneakers": ("rubber shoes", "trainers"), "Training Shoes": ("gym shoes",),
    "Official Size Ball": ("regulation ball",), "Training Ball": ("practice ball",), "Racket": ("racquet",),
    "Racket Set": ("racquet set",), "Yoga Mat": ("exercise mat",), "Exercise Mat": ("workout mat",),
    "Strings": ("string set",), "Clip-On Tuner": ("tuner",), "Shoulder Rest": ("shoulder pad",),
    "Gig Bag": ("soft case",), "Dictionary": ("dictionary",), "Phrasebook": ("phrase guide",),
    "Workbook": ("exercise book",), "Rice Cooker": ("rice pot",), "Multi Cooker": ("all-in-one cooker",),
    "Stand Fan": ("floor fan",), "Desk Fan": ("table fan",), "Wall Fan": ("wall-mounted fan",),
    "Tower Fan": ("tall fan",), "Frying Pan": ("skillet",), "Grill Pan": ("griddle pan",),
    "Saucepan": ("sauce pot",), "Tumbler": ("travel cup",), "Water Bottle": ("drinking bottle",),
    "Insulated Mug": ("thermal mug",), "Cordless Drill": ("battery drill",), "Impact Drill": ("hammer drill",),
    "Rotary Hammer": ("demolition hammer drill",), "Screwdriver Set": ("screwdriver set",),
    "Precision Screwdriver Kit": ("repair screwdriver kit",), "Car Cover": ("car tarp",),
    "Door Visor": ("rain guard",), "Seat Cover": ("car seat protector",), "Floor Mat": ("car mat",),
    "Car Shampoo": ("car wash soap",), "Car Wax": ("car polish",), "Tire Black": ("tyre shine",),
    "Glass Cleaner": ("windshield cleaner",), "Full Face Helmet": ("full-face motorcycle helmet",),
    "Half Face Helmet": ("open-face helmet",), "Modular Helmet": ("flip-up helmet",),
    "Building Blocks": ("block toy set",), "Brick Set": ("toy bricks",), "Construction Kit": ("building kit",),
    "Plush Toy": ("soft toy",), "Stuffed Animal": ("stuffed toy",), "Plush Pillow": ("cuddle pillow",),
    "Crayons": ("wax crayons",), "Colored Pencils": ("coloring pencils",), "Oil Pastels": ("pastel crayons",),
    "Watercolor Set": ("watercolor paint set",), "Gel Pen": ("gel ink pen",), "Sign Pen": ("felt pen",),
    "Ballpoint Pen": ("ballpen",), "Fineliner": ("fine tip marker",), "Feeding Bottle": ("milk bottle",),
    "Sippy Cup": ("toddler cup",), "Baby Bottle": ("baby milk bottle",), "Dry Dog Food": ("dog kibble",),
    "Dog Treats": ("dog snacks",), "Puppy Food": ("puppy kibble",), "Scented Candle": ("aroma candle",),
    "Soy Candle": ("soy wax candle",), "Jar Candle": ("jar candle",), "LED Strip Light": ("LED tape light",),
    "RGB Strip": ("color-changing LED strip",), "Fairy Lights": ("string lights",),
    "Pendant Necklace": ("pendant necklace",), "Chain Necklace": ("chain",), "Choker": ("choker necklace",),
    "Laptop Backpack": ("laptop bag",), "School Backpack": ("school bag",), "Travel Backpack": ("travel bag",),
}

MASS_NOUNS = frozenset(("coffee", "tea", "rice", "dinorado", "perfume", "parfum", "cologne", "mist", "spray",
                        "wash", "soap", "gel", "cream", "lotion", "sunblock", "food", "kibble", "polish", "shine",
                        "cleaner", "shampoo", "wax", "mix", "powder", "snack", "crisps", "chips", "toilette", "black",
                        "equipment", "art"))
"""Head words said without an article ("I need ground coffee")."""

USES: dict[str, tuple[str, ...]] = {
    "Coffee": ("for my morning cup",), "Chips & Crisps": ("for movie night",), "Tea": ("to drink after meals",),
    "Rice": ("for the family",), "Perfume": ("to give as a gift",), "Soap": ("for daily use",),
    "Moisturizers": ("for my face",), "Phone Cases": ("to protect my phone",), "USB Cables": ("to charge my phone",),
    "Power Banks": ("for travel",), "Earphones": ("for the commute",), "T-Shirts": ("for everyday wear",),
    "Casual Dresses": ("to wear on a day out",), "Jersey": ("for our team",), "Running Shoes": ("for jogging",),
    "Balls": ("for practice",), "Rackets": ("for weekend games",), "Yoga Mats": ("for home workouts",),
    "Rice Cookers": ("for the kitchen",), "Electric Fans": ("for the bedroom",), "Pans": ("for cooking at home",),
    "Tumblers": ("for school",), "Drills": ("for home repairs",), "Screwdriver Sets": ("for small repairs",),
    "Car Covers & Visors": ("for my car",), "Cleaning": ("to clean my car",), "Helmets": ("for riding",),
    "Blocks": ("for my kid",), "Plush": ("to give to a child",), "Coloring": ("for art class",),
    "Pens": ("for note taking",), "Bottles": ("for my baby",), "Dog Food": ("for my dog",),
    "Candles": ("for the living room",), "LED Strip Lights": ("to decorate my room",),
    "Necklaces": ("to give as a gift",), "Laptop Backpacks": ("to carry to work",),
    "Fridge Magnets": ("for my refrigerator", "for my home decoration"), "Wall Art": ("for my living room",),
}

# --- sentences around a request -------------------------------------------------------------------------------------

OPENERS: dict[str, int] = {"Show me": 46, "Looking for": 44, "I'm looking for": 4, "Find": 6}
VOUCHER_ITEM_OPENERS: dict[str, int] = {"I'm looking for": 44, "Looking for": 26, "Show me": 21, "Find": 9}
"""How a product request and a voucher request open, weighted as the official ones do (in 100 product requests:
"Show me" 46, "Looking for" 44; voucher requests: "I'm looking for" 44; neither says "I need", "I want to buy")."""
SECOND_SENTENCE = ("Please show only options", "Please show me options", "Only show ones")
SECOND_SENTENCE_PLURAL = SECOND_SENTENCE
SHOP_OPENERS: dict[str, int] = {"Find a shop offering these items": 1, "Find shops offering these items": 1,
                                "Find shops offering these products": 1, "Find a shop offering all of these": 1,
                                "I'm looking for a shop that offers these items": 6,
                                "I'm looking for a shop that sells these items": 4,
                                "I'm looking for a shop that offers several items": 1,
                                "Find shops offering at least these {n} products": 1,
                                "Looking for a shop that offers these items": 2,
                                "Looking for a shop offering these items": 1}
"""Weighted as the official shop instructions open ("I'm looking for a shop", "Find a shop", "Find shops
offering", "Looking for a shop"); {n} is the number of items in words."""
SHOP_CLOSINGS = ("Please show me shops that have all these products.",
                 "Please show shops that have all these products.", "Please show shops selling all these products.",
                 "Please show me shops offering all these products.",
                 "Can you help me find a store that sells all of these?", "Can you help me find such a store?",
                 "Can you help me find these products?", "Show only shops that sell all these items.")
VOUCHER_OPENERS = ("I'm looking for the following", "I'm looking for these items", "Looking for these products",
                   "I'm looking for a few items", "I'm looking for some products")
ORDINALS = ("First,", "Second,", "Third,", "Fourth,")
LAST_ORDINALS = ("Lastly,",) * 8 + ("Finally,",)
NEXT_ORDINALS = ("Next,",) * 4 + ("Then,",)
"""Marks of a list said in sentences: "First, ... Next, ... Lastly, ..." (the official set's commonest)."""
ITEM_VERBS = ("I want", "I need", "I'm looking for", "I'd like", "I'm interested in", "show me")
"""What follows an ordinal mark now and then ("First, I want ...", "Next, I need ...")."""
INLINE_LEADS: dict[str, int] = {"Also,": 6, "Also, I want": 1, "Also, I need": 1, "Additionally,": 2, "Also need": 1,
                               "Also searching for": 1, "Also, look for": 1}
INLINE_LAST = ("Lastly,", "Lastly,", "Lastly,", "Lastly, I need")
LAST_INLINE_RATE = 0.55
"""Items said in sentences of their own after the first, led as the official voucher requests lead them ("Also," 66
times, "Additionally," 17, "Also need/searching" 16); the last of three or more "Lastly, ..." this
often (a generated list that always ended so read as a program's: 60 in 100 against the official 17)."""
JOINED_LEADS = ("and also", "as well as")
"""Items said in one sentence ("Looking for a ..., and also a ...")."""
SHOP_VERBS: dict[str, int] = {"Find shops offering": 4, "Find a shop offering": 2, "Find shops that offer": 1,
                              "I'm looking for a shop that sells": 3, "Looking for a shop offering": 1}
"""A shop request said as one sentence of items ("Find shops offering both a ... and a ...", "Find shops offering
a ..., a ..., and a ..."), as most official two-item shop requests are."""
LIST_MARKS = (ORDINALS + LAST_ORDINALS + NEXT_ORDINALS + ITEM_VERBS + tuple(INLINE_LEADS) + INLINE_LAST + JOINED_LEADS
              + tuple(SHOP_VERBS))
"""Every word that leads an item of a list (the parser reads past them)."""

PURCHASE_LEADS = ("I would like to purchase", "I am interested in purchasing", "I would like to buy")
"""How a knowledge task turns to the product, as the official ones do (their commonest three)."""

CONTEXTS: dict[str, tuple[str, ...]] = {
    "pantry": ("Our pantry is almost empty.", "I'm stocking up on groceries this week.",
               "We're having guests over this weekend.", "I'm doing the monthly grocery run."),
    "beauty": ("I'm updating my skincare routine.", "My old bottle just ran out.",
               "I want to treat myself this payday."),
    "gift": ("It's for my sister's birthday next week.", "I'm shopping for a gift for my mom.",
             "Our anniversary is coming up.", "Christmas is coming and I'm shopping early."),
    "gadget": ("My old one broke yesterday.", "I just got a new phone.", "I'm packing for a trip to Cebu."),
    "wardrobe": ("I'm refreshing my wardrobe for summer.", "I need something new to wear to work.",
                 "I'm packing for a trip to Cebu."),
    "sport": ("Our team starts training next month.", "I'm getting into sports again.",
              "I'm getting into home workouts."),
    "kitchen": ("We just moved into a new condo.", "I'm setting up my first kitchen.",
                "My old one broke yesterday."),
    "repair": ("I have a few repairs to do around the house.", "I'm fixing up our garage this weekend."),
    "car": ("I just bought a secondhand car.", "The rainy season is coming.", "I wash the car every weekend."),
    "riding": ("I ride to work every day.", "I just got my first motorcycle.", "The rainy season is coming."),
    "kids": ("My kids go back to school on Monday.", "It's for my nephew's birthday.",
             "My daughter loves arts and crafts."),
    "baby": ("We have a newborn at home.", "I'm preparing for the baby's arrival."),
    "pet": ("We just adopted a puppy.", "Our dog is getting older."),
    "home": ("We just moved into a new condo.", "I'm redecorating my bedroom.", "I want our home to feel cozier."),
    "language": ("I'm starting language classes next month.", "I'm preparing to study abroad."),
    "music": ("I just started music lessons.", "Our band has a gig next month."),
}
"""Context a shopper gives before asking, by what the products are for; a request gets one only when every product
it names fits the same group (phrasing.context_group)."""

GROUP_WORDS: tuple[tuple[str, str], ...] = (
    ("Tools", "repair"), ("Groceries", "pantry"), ("Fragrances", "gift"), ("Jewelry", "gift"), ("Watches", "gift"),
    ("Beauty", "beauty"),
    ("Mobile", "gadget"), ("Cables", "gadget"), ("Power", "gadget"), ("Audio", "gadget"), ("Electronics", "gadget"),
    ("Sports", "sport"), ("Clothing", "wardrobe"), ("Shoes", "wardrobe"), ("Hats", "wardrobe"),
    ("Rice Cookers", "kitchen"), ("Cookware", "kitchen"), ("Kitchen", "kitchen"), ("Drinkware", "kitchen"),
    ("Motorcycle", "riding"), ("Automotive", "car"), ("Toys", "kids"), ("Stationery", "kids"),
    ("Art", "kids"), ("Baby", "baby"), ("Mother", "baby"), ("Pet", "pet"), ("Lighting", "home"), ("Home", "home"),
    ("Fans", "home"), ("Musical", "music"), ("Books", "language"), ("Bags", "wardrobe"),
)
"""A word of the category path → its context group (first match wins)."""


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
