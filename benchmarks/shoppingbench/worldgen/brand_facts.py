"""Real facts whose answer is a catalog brand, tied to the purchase the way the official set ties them: a surname
that is also a brand, an animal or a word that names one ("What is the surname of the German mathematician who
described a one-sided bottle in 1882? ... perfume from a brand that shares this surname" → Calvin Klein).

`value` is the brand exactly as vocab.KINDS spells it (the whole brand, or the one word of it the answer is, such as
"Klein" for "Calvin Klein": the title must contain it). Each fact states itself in a document of the world's
offline corpus, asks its question in one or two of the official set's frames, and says how the purchase follows
from the answer ({phrase} is the product in the shopper's words, without its brand). A purchase fits every kind
its brand sells (Stanley makes tumblers, drills and screwdriver sets: "a brand that shares this surname" fits all).
About half the links are surnames (a namesake rather than the founder, mostly); the rest are first names, animals,
birds, insects, a fruit, a flower, a goddess, a ship, a weapon, a city, a river, a place, a word and a company.
"""

from __future__ import annotations

from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.real_facts import Fact


def _b(value: str, title: str, statement: str, questions: tuple[str, ...], purchases: tuple[str, ...]) -> Fact:
    return Fact("brand", value, title, statement, questions, purchases)


SURNAME = ("I would like to purchase {phrase} from a brand that shares this surname.",
           "I am interested in buying {phrase} whose brand carries this surname.")
"""The official set's own surname link ("a steel tape measure that shares this surname as its brand")."""

BRAND_FACTS: tuple[Fact, ...] = (
    # --- surnames -----------------------------------------------------------------------------------------------------
    _b("Klein", "Felix Klein",
       "Felix Klein, the German mathematician of the Erlangen program, first described the Klein bottle, a "
       "one-sided surface, in 1882.",
       ("Who first described a one-sided bottle in 1882?",),
       SURNAME),
    _b("Calvin", "John Calvin",
       "John Calvin, the French Protestant reformer who led the church in Geneva, published the first edition of "
       "his Institutes of the Christian Religion in Basel in 1536.",
       ("What is the surname of the reformer who published the 'Institutes of the Christian Religion' in 1536?",),
       ("I would like to purchase {phrase} from a brand whose name begins with this surname.",)),
    _b("Herschel", "William Herschel",
       "William Herschel, a German-born astronomer working in Bath, England, discovered the planet Uranus on 13 "
       "March 1781.",
       ("What is the surname of the astronomer who discovered Uranus in 1781?",
        "Which astronomer spotted Uranus from his garden in Bath?"),
       SURNAME),
    _b("Herschel", "Caroline Herschel",
       "Caroline Herschel, the German-born astronomer who discovered several comets, was in 1828 the first woman "
       "awarded the Gold Medal of the Royal Astronomical Society; no other woman received it until 1996.",
       ("What is the surname of the first woman to receive the Gold Medal of the Royal Astronomical Society?",),
       ("I'm looking for {phrase} from a brand that shares this surname.",)),
    _b("Stanley", "Henry Morton Stanley",
       "Henry Morton Stanley, the Welsh-born journalist sent by the New York Herald, found the missing missionary "
       "David Livingstone at Ujiji near Lake Tanganyika in 1871.",
       ("Which journalist found David Livingstone at Ujiji in 1871?",
        "Which New York Herald correspondent was sent to find David Livingstone?"),
       SURNAME),
    _b("Stanley", "Stanley Cup",
       "Lord Stanley of Preston, Governor General of Canada, donated a challenge cup for Canada's best amateur ice "
       "hockey club in 1892; first awarded in 1893, it is known as the Stanley Cup.",
       ("Which Governor General of Canada donated an ice hockey challenge cup in 1892?",),
       ("I want {phrase} from a brand that shares this surname.",)),
    _b("Bosch", "Carl Bosch",
       "Carl Bosch, the German chemist who scaled up ammonia synthesis at BASF, shared the 1931 Nobel Prize in "
       "Chemistry with Friedrich Bergius for high-pressure chemical methods.",
       ("Who shared the 1931 Nobel Prize in Chemistry with Friedrich Bergius?",),
       SURNAME),
    _b("Bosch", "Hieronymus Bosch",
       "Hieronymus Bosch, the Netherlandish painter from 's-Hertogenbosch, painted the triptych The Garden of "
       "Earthly Delights, now in the Museo del Prado in Madrid.",
       ("Who painted the triptych 'The Garden of Earthly Delights'?",),
       ("I am interested in purchasing {phrase} from a brand that shares this surname.",)),
    _b("Wilson", "Woodrow Wilson",
       "Woodrow Wilson, the 28th President of the United States, was awarded the Nobel Peace Prize for 1919 for his "
       "part in founding the League of Nations.",
       ("Which U.S. president was awarded the Nobel Peace Prize for 1919?",),
       SURNAME),
    _b("Wilson", "C. T. R. Wilson",
       "Charles Thomson Rees Wilson, the Scottish physicist who invented the cloud chamber, shared the 1927 Nobel "
       "Prize in Physics with Arthur Compton.",
       ("Which Scottish physicist won a Nobel Prize for inventing the cloud chamber?",),
       ("I would like to buy {phrase} from a brand that shares this surname.",)),
    _b("Spalding", "Esperanza Spalding",
       "Esperanza Spalding, the jazz bassist and singer, won the Grammy Award for Best New Artist in February 2011, "
       "ahead of Justin Bieber and Drake; she was the first jazz musician to win it.",
       ("Which jazz bassist won the Grammy for Best New Artist in 2011?",),
       SURNAME),
    _b("Malone", "Moses Malone",
       "Moses Malone, the center of the Philadelphia 76ers, was named Most Valuable Player of the 1983 NBA Finals, "
       "in which the 76ers swept the Los Angeles Lakers.",
       ("Who was named MVP of the 1983 NBA Finals?",),
       ("I would like to purchase {phrase} from a brand whose name ends with this surname.",)),
    _b("Giordano", "Umberto Giordano",
       "Umberto Giordano, the Italian composer, wrote the opera Andrea Chénier, first performed at La Scala in "
       "Milan in 1896.",
       ("What is the surname of the composer of the opera 'Andrea Chénier'?",),
       SURNAME),
    _b("Collins", "Michael Collins (astronaut)",
       "Michael Collins, the command module pilot of Apollo 11, stayed in lunar orbit aboard Columbia in July 1969 "
       "while Neil Armstrong and Buzz Aldrin walked on the Moon.",
       ("Which Apollo 11 astronaut stayed in lunar orbit aboard Columbia?",),
       SURNAME),
    _b("Collins", "Wilkie Collins",
       "Wilkie Collins, the English novelist of The Woman in White, published The Moonstone in 1868, one of the "
       "first detective novels in English.",
       ("Which English novelist wrote 'The Moonstone' in 1868?",),
       ("I'm looking for {phrase} from a brand that shares this surname.",)),
    _b("Webster", "Webster–Ashburton Treaty",
       "The Webster–Ashburton Treaty of 1842, negotiated by U.S. Secretary of State Daniel Webster and Britain's "
       "Lord Ashburton, settled the border between Maine and New Brunswick.",
       ("Which U.S. Secretary of State negotiated an 1842 treaty with Lord Ashburton?",),
       ("I would like to purchase {phrase} from a brand whose name ends with this surname.",)),
    _b("Ortega", "Daniel Ortega",
       "Daniel Ortega, the Sandinista leader, was President of Nicaragua from 1985 to 1990 and returned to the "
       "presidency in 2007.",
       ("Which Sandinista leader became President of Nicaragua in 1985?",),
       SURNAME),
    _b("Ortega", "Kenny Ortega",
       "Kenny Ortega, the American choreographer of Dirty Dancing (1987), directed the Disney Channel film High "
       "School Musical in 2006.",
       ("Who directed the Disney Channel film 'High School Musical'?",),
       ("I want {phrase} from a brand that shares this surname.",)),
    _b("Lipton", "Sir Thomas Lipton Trophy",
       "The Sir Thomas Lipton Trophy, a football tournament held in Turin in 1909 and 1911 and sometimes called the "
       "first World Cup, was won both times by the amateur side West Auckland; the Glasgow-born tea merchant Thomas "
       "Lipton gave the trophy.",
       ("Which merchant gave the trophy West Auckland won in Turin in 1909?",),
       SURNAME),
    _b("Dove", "Rita Dove",
       "Rita Dove, the American poet, won the 1987 Pulitzer Prize for Poetry for Thomas and Beulah and was U.S. "
       "Poet Laureate from 1993 to 1995.",
       ("Who won the 1987 Pulitzer Prize for Poetry?",),
       SURNAME),
    _b("Hawk", "Tony Hawk",
       "Tony Hawk, the American skateboarder, landed the first 900 (two and a half aerial spins) in competition at "
       "the X Games in San Francisco in 1999.",
       ("Which skateboarder landed the first 900 at the 1999 X Games?",),
       ("I would like to buy {phrase} from a brand that shares this surname.",)),
    _b("Bench", "Johnny Bench",
       "Johnny Bench, the Cincinnati Reds catcher, was named Most Valuable Player of the 1976 World Series after "
       "hitting .533 in the sweep of the New York Yankees.",
       ("Which Cincinnati Reds catcher was named MVP of the 1976 World Series?",),
       SURNAME),
    _b("Anker", "Albert Anker",
       "Albert Anker, born in Ins in the canton of Bern in 1831, is often called the national painter of "
       "Switzerland for his scenes of village life.",
       ("What is the surname of the Swiss painter born in Ins in 1831?",),
       ("I am interested in purchasing {phrase} from a brand that shares this surname.",)),
    # --- first names and names ----------------------------------------------------------------------------------------
    _b("Giordano", "Giordano Bruno",
       "Giordano Bruno, the Dominican friar and philosopher, was burned at the stake in Rome's Campo de' Fiori in "
       "February 1600.",
       ("What was the first name of the friar burned at the stake in Rome's Campo de' Fiori in 1600?",),
       ("I would like to purchase {phrase} from a brand that shares this first name.",)),
    _b("Alice", "Alice Munro",
       "Alice Munro, the Canadian short-story writer, was awarded the 2013 Nobel Prize in Literature as a master of "
       "the contemporary short story.",
       ("What is the first name of the writer who won the 2013 Nobel Prize in Literature?",),
       ("I would like to purchase {phrase} from a brand that shares this first name.",)),
    _b("Zara", "Zara Tindall",
       "Zara Phillips (now Zara Tindall), Princess Anne's daughter, won the individual eventing title at the 2006 "
       "World Equestrian Games in Aachen and was BBC Sports Personality of the Year 2006.",
       ("What is the first name of Princess Anne's daughter?",),
       ("I'm looking for {phrase} from a brand that shares this first name.",)),
    _b("Ernie", "Ernie Els",
       "Ernie Els, the South African golfer nicknamed The Big Easy, won the 2002 Open Championship at Muirfield "
       "after a four-man playoff.",
       ("What is the first name of the golfer who won the 2002 Open Championship at Muirfield?",),
       ("I would like to buy {phrase} from a brand whose name starts with this first name.",)),
    _b("Wilson", "Cast Away",
       "In the 2000 film Cast Away, Chuck Noland (Tom Hanks), stranded on an island, paints a face on a volleyball "
       "and names it Wilson.",
       ("What name does Tom Hanks's character give the volleyball in 'Cast Away'?",),
       ("I would like to purchase {phrase} from a brand that shares this name.",)),
    _b("Pitbull", "We Are One (Ole Ola)",
       "We Are One (Ole Ola), the official song of the 2014 FIFA World Cup, was recorded by the Miami rapper "
       "Pitbull with Jennifer Lopez and Claudia Leitte.",
       ("Which rapper recorded 'We Are One (Ole Ola)' for the 2014 FIFA World Cup?",),
       ("I would like to purchase {phrase} from a brand that shares this name.",)),
    _b("Li-Ning", "Li Ning",
       "Li Ning, the Chinese gymnast who won three gold medals at the 1984 Los Angeles Olympics, founded the "
       "sportswear company Li-Ning in 1990 and lit the cauldron at the 2008 Beijing Olympics.",
       ("Which Chinese gymnast lit the cauldron at the 2008 Beijing Olympics?",),
       ("I would like to purchase {phrase} from the brand that bears this name.",)),
    _b("Akari", "Akari light sculptures",
       "Akari is the name the sculptor Isamu Noguchi gave the paper-lantern light sculptures he began in 1951 "
       "after visiting the lantern makers of Gifu, Japan; the word means light.",
       ("What name did Isamu Noguchi give his paper light sculptures?",),
       ("I would like to purchase {phrase} from a brand that shares this name.",)),
    _b("Butterfly", "Madama Butterfly",
       "In Giacomo Puccini's opera Madama Butterfly, first performed at La Scala in 1904, the geisha Cio-Cio-San is "
       "called Butterfly.",
       ("By what nickname is Cio-Cio-San known in Puccini's opera?",),
       ("I would like to purchase {phrase} from a brand that shares this nickname.",)),
    # --- animals, birds, insects, plants ------------------------------------------------------------------------------
    _b("Pigeon", "Cher Ami",
       "Cher Ami, a homing pigeon of the U.S. Army Signal Corps, carried the message that saved the Lost Battalion "
       "in the Argonne Forest in October 1918 and was awarded the French Croix de Guerre.",
       ("What kind of bird was Cher Ami of the Lost Battalion?",),
       ("I would like to purchase {phrase} from a brand named after this bird.",)),
    _b("Zebra", "Grévy's zebra",
       "Grévy's zebra, the largest zebra, was described by Émile Oustalet in 1882 and named after the French "
       "president Jules Grévy, who had been given one from Abyssinia.",
       ("Which animal has a species named after the French president Jules Grévy?",),
       ("I would like to purchase {phrase} from a brand named after this animal.",)),
    _b("Firefly", "Firefly",
       "The firefly, or lightning bug, is a beetle of the family Lampyridae whose abdomen glows through "
       "bioluminescence, the enzyme luciferase oxidizing luciferin.",
       ("Which insect is called the lightning bug in North America?",),
       ("I would like to purchase {phrase} from a brand named after this insect.",)),
    _b("Turtle", "Turtle (submersible)",
       "Turtle, the one-man submersible built by David Bushnell, attacked the British flagship HMS Eagle in New "
       "York Harbor in 1776, the first submarine used in combat.",
       ("What was the name of David Bushnell's 1776 submarine?",),
       ("I would like to purchase {phrase} from a brand whose first word is this name.",)),
    _b("Goose", "Nene",
       "The nene, or Hawaiian goose, is the state bird of Hawaii and is found only in the Hawaiian Islands.",
       ("What kind of bird is the Hawaiian nene?",),
       ("I would like to purchase {phrase} from a brand whose name ends with this bird.",)),
    _b("Mango", "Alphonso",
       "The Alphonso, one of India's most prized mango varieties, is named after Afonso de Albuquerque, the "
       "Portuguese general who helped establish Portuguese rule in Goa.",
       ("Which fruit's Alphonso variety is named after Afonso de Albuquerque?",),
       ("I would like to purchase {phrase} from a brand named after this fruit.",)),
    _b("Sakura", "National Cherry Blossom Festival",
       "In 1912 Tokyo's mayor Yukio Ozaki gave Washington, D.C. 3,020 flowering cherry trees, sakura in Japanese, "
       "whose blossoming the National Cherry Blossom Festival celebrates.",
       ("What is the Japanese word for the cherry trees Tokyo gave Washington, D.C. in 1912?",),
       ("I would like to purchase {phrase} from a brand whose name is this word.",)),
    _b("Lotus", "Lotus Temple",
       "The Bahá'í House of Worship in New Delhi, completed in 1986, is shaped like a lotus flower of 27 marble "
       "petals and is known as the Lotus Temple.",
       ("Which flower gives its shape to the Bahá'í House of Worship in New Delhi?",),
       ("I would like to purchase {phrase} from a brand named after this flower.",)),
    # --- myth, ships, weapons, elements -------------------------------------------------------------------------------
    _b("Nike", "Winged Victory of Samothrace",
       "The Winged Victory of Samothrace, a Hellenistic marble statue in the Louvre found on Samothrace in 1863, "
       "depicts Nike, the Greek goddess of victory.",
       ("Which goddess does the Winged Victory of Samothrace depict?",
        "Which goddess is shown by the marble statue found on Samothrace in 1863?"),
       ("I would like to purchase {phrase} from a brand named after this goddess.",)),
    _b("Pandora", "Pandora",
       "In Hesiod's Theogony and Works and Days, Pandora is the first woman, fashioned by Hephaestus on Zeus's "
       "orders, who opened the jar that released evils into the world.",
       ("In Hesiod's poems, what was the name of the first woman?",),
       ("I would like to purchase {phrase} from a brand named after this character.",)),
    _b("Mikasa", "Japanese battleship Mikasa",
       "Mikasa, a battleship built by Vickers in Britain, was Admiral Tōgō Heihachirō's flagship at the Battle of "
       "Tsushima in 1905 and is preserved as a museum ship in Yokosuka.",
       ("What was the name of Admiral Tōgō's flagship at the Battle of Tsushima?",
        "Which battleship is now a museum ship in Yokosuka?"),
       ("I would like to purchase {phrase} from a brand that shares its name with this ship.",)),
    _b("Kris", "Kris",
       "The kris, or keris, is an asymmetrical dagger, often with a wavy blade; UNESCO proclaimed the Indonesian "
       "kris a Masterpiece of the Oral and Intangible Heritage of Humanity in 2005.",
       ("Which Indonesian dagger did UNESCO proclaim a Masterpiece of Intangible Heritage in 2005?",),
       ("I would like to purchase {phrase} from a brand named after this weapon.",)),
    _b("Oxygen", "Joseph Priestley",
       "In 1774 Joseph Priestley isolated a gas he called dephlogisticated air; Antoine Lavoisier later named "
       "it oxygen.",
       ("Which element did Joseph Priestley call dephlogisticated air?",),
       ("I would like to purchase {phrase} from a brand named after this element.",)),
    # --- places, words, companies -------------------------------------------------------------------------------------
    _b("Oxford", "Ashmolean Museum",
       "The Ashmolean Museum in Oxford, built around Elias Ashmole's collection, opened in 1683 as Britain's first "
       "public museum.",
       ("In which English city did the Ashmolean Museum open in 1683?",),
       ("I would like to purchase {phrase} from a brand that shares its name with this city.",)),
    _b("Bath", "Aquae Sulis",
       "Aquae Sulis, the Roman town built around hot springs and a temple to Sulis Minerva, is the English city of "
       "Bath, whose Roman Baths still stand.",
       ("Which English city did the Romans call Aquae Sulis?",),
       ("I would like to purchase {phrase} from a brand whose name begins with this city's name.",)),
    _b("Avon", "Clifton Suspension Bridge",
       "The Clifton Suspension Bridge, designed by Isambard Kingdom Brunel and opened in 1864, spans the River Avon "
       "and its gorge at Bristol.",
       ("Which river does the Clifton Suspension Bridge span?",),
       ("I would like to purchase {phrase} from a brand that shares its name with this river.",)),
    _b("Peak", "Peak District",
       "The Peak District, designated in April 1951, was the first national park in the United Kingdom.",
       ("Which area became the United Kingdom's first national park in 1951?",),
       ("I would like to purchase {phrase} from a brand named with the first word of this place's name.",)),
    _b("Nature", "Molecular Structure of Nucleic Acids",
       "James Watson and Francis Crick published their double-helix structure of DNA in the journal Nature on 25 "
       "April 1953.",
       ("In which journal did Watson and Crick publish the structure of DNA in 1953?",),
       ("I would like to purchase {phrase} from a brand whose name ends with this word.",)),
    _b("Standard", "Standard Oil",
       "Standard Oil, founded by John D. Rockefeller in Ohio in 1870, was broken up by the U.S. Supreme Court in "
       "1911.",
       ("What was the name of John D. Rockefeller's oil company?",),
       ("I would like to purchase {phrase} from a brand that shares the first word of this company's name.",)),
    _b("Philips", "PSV Eindhoven",
       "PSV Eindhoven, the Dutch football club, was founded in 1913 as the sports club (Philips Sport Vereniging) "
       "of the employees of the electronics company Philips.",
       ("For the employees of which company was PSV founded in 1913?",),
       ("I would like to purchase {phrase} made by this company.",)),
    _b("Tefal", "Marc Grégoire",
       "Marc Grégoire, the French engineer who coated an aluminium pan with Teflon, founded Tefal with his wife "
       "Colette in 1956; the name joins TEFlon and ALuminium.",
       ("Which French cookware company did Marc Grégoire found in 1956?",),
       ("I would like to purchase {phrase} from this company.",)),
    _b("Uniqlo", "Unique Clothing Warehouse",
       "Uniqlo opened its first store in Hiroshima in June 1984 under the name Unique Clothing Warehouse, run by "
       "Tadashi Yanai's family firm; the name was later shortened.",
       ("Which Japanese clothing chain opened its first store in Hiroshima in 1984?",),
       ("I would like to purchase {phrase} from this company.",)),
    _b("Asics", "Asics",
       "Asics, the Japanese sportswear company of Kobe formed in 1977 from Kihachiro Onitsuka's company and two "
       "others, takes its name from the Latin motto anima sana in corpore sano, a sound mind in a sound body.",
       ("Which sportswear company's name comes from the Latin 'anima sana in corpore sano'?",),
       ("I am interested in purchasing {phrase} from this company.",)),
)


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
