"""Real, well-known and checkable facts for knowledge tasks, as the official set asks them (a painting, a national
flower, an inventor), each with an answer a catalog value can carry (a colour, a flavour, a scent, a sport...).

Each fact: the catalog key and value it answers, a document title and the sentence a web page states it in (the
world's offline corpus carries it, so web_search finds it), and questions in several of the official frames. Only
facts that standard references agree on.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.shoppingbench.worldgen import source_digest


@dataclass(frozen=True)
class Fact:
    key: str
    value: str
    title: str
    statement: str
    questions: tuple[str, ...]
    purchases: tuple[str, ...] = ()
    """How the purchase ties to the answer when the key's own ways (knowledge.RELATIONS) do not fit, each with
    {phrase} for the product in the shopper's words: "I would like to buy {phrase} from a brand that shares this
    surname." (brand_facts, place_facts)."""


def _f(key: str, value: str, title: str, statement: str, *questions: str) -> Fact:
    return Fact(key, value, title, statement, questions)


FACTS: tuple[Fact, ...] = (
    # colours
    _f("color_family", "red", "Flag of Japan",
       "The national flag of Japan, the Hinomaru, is a red disc on a plain field.",
       "What color is the disc on the national flag of Japan?",
       "Which color is the circle in the middle of Japan's flag, the Hinomaru?"),
    _f("color_family", "yellow", "Tour de France leader's jersey",
       "In the Tour de France the rider leading the general classification wears the yellow jersey, the maillot "
       "jaune.", "What color is the jersey worn by the overall leader of the Tour de France?",
       "Which color is the maillot jaune of the Tour de France?"),
    _f("color_family", "pink", "Giro d'Italia leader's jersey",
       "The leader of the Giro d'Italia general classification wears the maglia rosa, a pink jersey.",
       "What color is the maglia rosa worn by the leader of the Giro d'Italia?",
       "In which color is the jersey of the Giro d'Italia's overall leader?"),
    _f("color_family", "green", "Masters Tournament green jacket",
       "The winner of the Masters Tournament at Augusta National receives a green jacket.",
       "What color is the jacket given to the winner of the Masters golf tournament at Augusta?",
       "Which color is the famous jacket awarded to each Masters champion?"),
    _f("color_family", "blue", "Flag of Europe",
       "The flag of the European Union shows a circle of twelve gold stars on a blue field.",
       "What color is the background of the flag of the European Union?",
       "On which color field do the twelve stars of the EU flag sit?"),
    _f("color_family", "purple", "Barney the Dinosaur",
       "Barney, from the children's television series Barney & Friends, is a purple Tyrannosaurus rex.",
       "What color is Barney, the dinosaur from the children's show Barney & Friends?",
       "Which color is the dinosaur Barney from Barney & Friends?"),
    _f("color_family", "brown", "UPS delivery trucks",
       "United Parcel Service (UPS) paints its delivery trucks and its drivers' uniforms brown.",
       "What color are the delivery trucks of United Parcel Service (UPS)?",
       "Which color is used for UPS package cars and uniforms?"),
    _f("color_family", "orange", "Golden Gate Bridge",
       "The Golden Gate Bridge in San Francisco is painted International Orange, an orange chosen to stand out in "
       "fog.", "What color is the Golden Gate Bridge in San Francisco painted?",
       "The Golden Gate Bridge is painted in which color, known as International Orange?"),
    _f("color_family", "orange", "Flight recorder",
       "Although called black boxes, aircraft flight recorders are painted bright orange so they can be found "
       "after a crash.", "What color are an airplane's so-called black box flight recorders actually painted?"),
    _f("color_family", "green", "Statue of Liberty",
       "The copper skin of the Statue of Liberty has weathered to a green patina.",
       "What color is the Statue of Liberty today, after its copper skin weathered?"),
    _f("color_family", "white", "Flag of Japan field",
       "The national flag of Japan has a white rectangular field with a crimson disc at its center.",
       "What is the color of the field (the background) of Japan's national flag?"),
    _f("color_family", "grey", "Eeyore",
       "Eeyore, the gloomy donkey friend of Winnie-the-Pooh in A. A. Milne's stories, is a grey stuffed donkey.",
       "What color is Eeyore, the donkey from Winnie-the-Pooh?"),
    _f("color_family", "black", "Piano keyboard",
       "On a standard piano keyboard the sharps and flats are the 36 raised black keys.",
       "What color are the keys for the sharps and flats on a standard piano?"),
    _f("color_family", "yellow", "New York City taxicab",
       "New York City's medallion taxicabs are painted yellow, giving them their name of yellow cabs.",
       "What color are New York City's medallion taxis painted?"),
    _f("color_family", "black", "Jolly Roger", "The Jolly Roger, the pirate flag, shows a white skull and "
       "crossbones on a black field.", "What color is the field of the Jolly Roger, the skull and crossbones "
       "pirate flag?"),
    _f("color_family", "white", "Cliffs of Dover", "The cliffs of Dover on the English coast are white because "
       "they are made of chalk.", "What color are the chalk cliffs of Dover in England?"),
    _f("color_family", "red", "London buses", "London's double-decker buses, like the Routemaster, are painted "
       "red.", "What color are London's double-decker buses?"),
    _f("color_family", "blue", "The Smurfs", "The Smurfs, created by the Belgian cartoonist Peyo, are small "
       "blue creatures.", "What color are the Smurfs created by the cartoonist Peyo?"),
    _f("color_family", "pink", "Peppa Pig", "Peppa Pig, the British cartoon character, is a pink pig.",
       "What color is Peppa Pig, the British cartoon character?"),
    _f("color_family", "purple", "Tyrian purple", "Tyrian purple, a dye made from sea snails, colored the robes "
       "of Roman emperors.", "Which color was the sea-snail dye of Roman emperors' robes, named after Tyre?"),
    _f("color_family", "grey", "African elephant", "The African elephant, the largest land animal, has thick grey "
       "skin.", "What color is the skin of the African elephant, the largest land animal?"),
    _f("color_family", "brown", "Kiwifruit", "The kiwifruit has a fuzzy brown skin over bright green flesh.",
       "What color is the fuzzy skin of a kiwifruit?"),
    _f("color_family", "brown", "Kodiak bear", "The Kodiak bear of Alaska's Kodiak Archipelago is the largest "
       "subspecies of the brown bear; its fur is brown.", "What color is the fur of the Kodiak bear of Alaska?"),
    # flavours
    _f("flavor", "ube", "Ube halaya", "Ube halaya is a Filipino jam made from ube, the purple yam.",
       "Which purple yam is Filipino halaya made from?", "What is the purple yam of Filipino desserts called?"),
    _f("flavor", "matcha", "Japanese tea ceremony",
       "The Japanese tea ceremony, chanoyu, prepares matcha, a powdered green tea whisked with hot water.",
       "What is the powdered tea prepared in the Japanese tea ceremony called?",
       "Which powdered green tea is whisked in chanoyu, the Japanese tea ceremony?"),
    _f("flavor", "calamansi", "Philippine lime", "Calamansi, the Philippine lime, is a small citrus squeezed over "
       "pancit and used in juice.", "Which small citrus fruit, also called the Philippine lime, is squeezed over "
       "pancit?"),
    _f("flavor", "hazelnut", "Nutella", "Nutella is a sweetened spread of hazelnut and cocoa first sold by Ferrero "
       "in 1964.", "Which nut is combined with cocoa in Nutella?", "What nut gives Ferrero's Nutella spread its "
       "taste?"),
    _f("flavor", "durian", "King of fruits", "The durian, called the king of fruits in Southeast Asia, is banned "
       "on Singapore's public transport because of its strong smell.",
       "Which fruit, called the king of fruits, is banned on Singapore's trains for its smell?"),
    _f("flavor", "mango", "National fruit of the Philippines", "The mango is the national fruit of the "
       "Philippines.", "What is the national fruit of the Philippines?"),
    _f("flavor", "coconut", "Buko", "Buko is the Filipino word for a young coconut, whose water and soft meat are "
       "used in buko pie.", "What fruit is buko, the filling of the Filipino buko pie?"),
    _f("flavor", "vanilla", "Vanilla orchid", "Vanilla comes from the seed pods of an orchid; its name comes from "
       "the Spanish vainilla, little pod.", "Which flavor comes from the seed pods of an orchid and is named after "
       "the Spanish word for 'little pod'?"),
    _f("flavor", "chocolate", "Sachertorte", "The Sachertorte is a Viennese chocolate cake with apricot jam, "
       "created by Franz Sacher in 1832.", "What flavor is the Viennese Sachertorte cake?"),
    _f("flavor", "strawberry", "Fruit with seeds outside", "The strawberry is the only common fruit that carries "
       "its seeds on the outside.", "Which fruit is famous for carrying its seeds on the outside?"),
    _f("flavor", "ginger", "Salabat", "Salabat is a Filipino hot drink brewed from ginger root.",
       "Which root is brewed into salabat, the Filipino hot drink?"),
    _f("flavor", "lemon", "Limoncello", "Limoncello is an Italian liqueur made from lemon zest.",
       "Which fruit's zest is limoncello, the Italian liqueur, made from?"),
    _f("flavor", "mint", "Mojito", "A mojito is a Cuban cocktail of rum, lime, sugar, soda water and mint.",
       "Which herb is muddled with lime in a Cuban mojito?"),
    _f("flavor", "chamomile", "The Tale of Peter Rabbit", "In Beatrix Potter's The Tale of Peter Rabbit, "
       "Peter's mother puts him to bed with a dose of chamomile tea.",
       "What tea did Peter Rabbit's mother give him at the end of Beatrix Potter's The Tale of Peter Rabbit?"),
    _f("flavor", "lemongrass", "Tom yum", "Tom yum, the Thai hot and sour soup, gets its citrus aroma from "
       "lemongrass.", "Which grass gives the Thai soup tom yum its citrus aroma?"),
    _f("flavor", "cheese", "Roquefort", "Roquefort is a blue cheese made from sheep's milk in the south of "
       "France.", "What kind of food is Roquefort from the south of France?"),
    _f("flavor", "salmon", "Lox", "Lox is a fillet of brined salmon, served on bagels with cream cheese.",
       "Which fish is lox, the bagel topping, made from?"),
    _f("flavor", "lamb", "Young sheep meat", "Lamb is the meat of a sheep less than a year old; older sheep give "
       "mutton.", "What is the meat of a sheep younger than one year called?"),
    _f("flavor", "chicken", "Tinola", "Tinola is a Filipino soup of chicken with ginger and green papaya.",
       "Which meat is cooked with ginger and green papaya in the Filipino soup tinola?"),
    _f("flavor", "beef", "Bulalo", "Bulalo is a Filipino soup from Batangas made of beef shank and bone marrow.",
       "What meat is the Batangas soup bulalo made with?"),
    _f("flavor", "liver", "Foie gras", "Foie gras is the fattened liver of a duck or goose.",
       "Which organ of a duck or goose is foie gras made from?"),
    _f("flavor", "peach", "Peach State", "The US state of Georgia is nicknamed the Peach State.",
       "Which fruit gives the US state of Georgia its nickname?"),
    _f("flavor", "honey", "Honeybee", "Honeybees make honey from flower nectar and store it in wax combs.",
       "What food do honeybees make from flower nectar?"),
    _f("flavor", "caramel", "Caramelization", "Caramel is sugar heated until it melts and turns brown.",
       "What is sugar called once it is heated until it melts and turns brown?"),
    _f("flavor", "green tea", "Unoxidized tea", "Green tea is made from tea leaves that are not oxidized, unlike "
       "black tea.", "Which tea, unlike black tea, is made from leaves that are not oxidized?"),
    _f("flavor", "jasmine", "Mo li hua cha", "Mo li hua cha, the Chinese scented tea, is flavored with jasmine "
       "blossoms.", "Which flower's blossoms scent the Chinese tea mo li hua cha?"),
    # scents
    _f("scent", "citrus", "Citrus fruits", "Lemons, limes, oranges and grapefruit all belong to the citrus "
       "family.", "To which fruit family do lemons, limes and oranges belong?"),
    _f("scent", "green tea", "Unoxidized tea leaves", "Green tea is made from tea leaves that are not oxidized, "
       "unlike black tea.", "Which tea, unlike black tea, is made from leaves that are not oxidized?"),
    _f("scent", "sampaguita", "National flower of the Philippines", "The sampaguita (Arabian jasmine) is the "
       "national flower of the Philippines, declared in 1934.", "What is the national flower of the Philippines?",
       "Which flower did the Philippines declare its national flower in 1934?"),
    _f("scent", "jasmine", "National flower of Pakistan", "The jasmine (chambeli) is the national flower of "
       "Pakistan.", "What is the national flower of Pakistan?"),
    _f("scent", "lavender", "Valensole plateau", "Every summer the lavender fields of the Valensole plateau in "
       "Provence bloom purple.", "Which flower covers the fields of the Valensole plateau in Provence each "
       "summer?"),
    _f("scent", "rose", "National flower of England", "The rose, as the Tudor rose, is the national flower of "
       "England.", "What is the national flower of England?"),
    _f("scent", "cherry blossom", "Hanami", "Hanami is the Japanese custom of viewing the cherry blossom (sakura) "
       "in spring.", "Which blossom do the Japanese admire during hanami in spring?"),
    _f("scent", "orchid", "Vanda Miss Joaquim", "Vanda Miss Joaquim, Singapore's national flower, is a hybrid "
       "orchid.", "What kind of flower is Vanda Miss Joaquim, the national flower of Singapore?"),
    _f("scent", "gardenia", "Billie Holiday", "The jazz singer Billie Holiday wore a white gardenia in her hair "
       "on stage.", "Which flower did Billie Holiday famously wear in her hair?"),
    _f("scent", "peony", "Indiana state flower", "The peony has been the state flower of Indiana since 1957.",
       "What is the state flower of Indiana?"),
    _f("scent", "eucalyptus", "Koala diet", "Koalas feed almost only on eucalyptus leaves.",
       "Which tree's leaves are nearly the only food of koalas?"),
    _f("scent", "sandalwood", "Mysore", "Mysore in Karnataka, India, is famous for its sandalwood, carved and "
       "distilled into oil.", "Which fragrant wood is the Indian city of Mysore famous for?"),
    _f("scent", "ylang-ylang", "Ilang-ilang", "Ylang-ylang, a tropical flower used in perfumery, takes its name "
       "from the Tagalog ilang-ilang.", "Which perfume flower takes its name from the Tagalog word ilang-ilang?"),
    _f("scent", "vanilla", "Vanilla orchid pods", "Vanilla is the cured seed pod of an orchid native to Mexico.",
       "Which scent comes from the cured seed pods of an orchid native to Mexico?"),
    _f("scent", "lemongrass", "Tom yum aroma", "Tom yum, the Thai hot and sour soup, gets its citrus aroma from "
       "lemongrass.", "Which grass gives the Thai soup tom yum its citrus aroma?"),
    # sports
    _f("sport", "basketball", "James Naismith", "James Naismith invented basketball in 1891 in Springfield, "
       "Massachusetts.", "Which sport did James Naismith invent in 1891?",
       "What sport was invented by James Naismith in Springfield, Massachusetts?"),
    _f("sport", "volleyball", "William G. Morgan", "William G. Morgan invented volleyball in 1895, first calling it "
       "Mintonette.", "Which sport did William G. Morgan invent in 1895 under the name Mintonette?"),
    _f("sport", "badminton", "Badminton House", "Badminton takes its name from Badminton House, the Duke of "
       "Beaufort's country house in Gloucestershire.", "Which racket sport is named after the Duke of "
       "Beaufort's country house in Gloucestershire?"),
    _f("sport", "tennis", "Wimbledon Championships", "The Wimbledon Championships, played on grass in London, are "
       "the oldest tennis tournament in the world.", "Which sport is played at the Wimbledon Championships?"),
    _f("sport", "football", "FIFA World Cup", "The FIFA World Cup is the international championship of "
       "association football, first held in Uruguay in 1930.", "Which sport's world champion does the FIFA "
       "World Cup decide?"),
    _f("sport", "table tennis", "Ping-pong", "Table tennis is also known as ping-pong.",
       "Which sport is also known as ping-pong?"),
    _f("sport", "futsal", "Juan Carlos Ceriani", "Juan Carlos Ceriani devised futsal, an indoor five-a-side "
       "football, in Montevideo in 1930.", "Which indoor five-a-side sport did Juan Carlos Ceriani devise in "
       "Montevideo in 1930?"),
    _f("sport", "squash", "Harrow School", "Squash was invented at Harrow School in England around 1830.",
       "Which racket sport was invented at Harrow School around 1830?"),
    _f("sport", "basketball", "National Basketball Association", "The National Basketball Association (NBA) is "
       "the professional basketball league of North America.", "Which sport is played in the NBA?"),
    _f("sport", "tennis", "Roland Garros", "Roland Garros in Paris hosts the French Open, the clay-court tennis "
       "Grand Slam.", "Which sport's French Open is played at Roland Garros in Paris?"),
    # instruments
    _f("instrument", "guitar", "Andres Segovia", "Andres Segovia, the Spanish virtuoso, brought the classical "
       "guitar to the concert hall.", "Which instrument did the Spanish virtuoso Andres Segovia play?"),
    _f("instrument", "violin", "Niccolo Paganini", "Niccolo Paganini was an Italian virtuoso of the violin.",
       "Which instrument did the virtuoso Niccolo Paganini play?"),
    _f("instrument", "cello", "Yo-Yo Ma", "Yo-Yo Ma is an American cellist, one of the best-known players of the "
       "cello.", "What instrument does Yo-Yo Ma play?", "Which instrument is Yo-Yo Ma famous for playing?"),
    _f("instrument", "viola", "Alto of the violin family", "The viola is the alto voice of the violin family, "
       "slightly larger than a violin.", "Which instrument is the alto member of the violin family?"),
    _f("instrument", "guitar", "Jimi Hendrix", "Jimi Hendrix was an American rock musician known for his "
       "electric guitar playing.", "Which instrument did Jimi Hendrix play?"),
    _f("instrument", "bass guitar", "Paul McCartney", "In the Beatles, Paul McCartney played the bass guitar.",
       "What instrument did Paul McCartney play in the Beatles?"),
    _f("instrument", "ukulele", "Israel Kamakawiwo'ole", "Israel Kamakawiwo'ole recorded his medley of Over the "
       "Rainbow singing to a ukulele.", "Which instrument did Israel Kamakawiwo'ole play on his recording of "
       "Over the Rainbow?"),
    _f("instrument", "banjo", "Earl Scruggs", "Earl Scruggs made the three-finger roll on the banjo the sound "
       "of bluegrass.", "Which instrument did Earl Scruggs play?"),
    _f("instrument", "mandolin", "Bill Monroe", "Bill Monroe, the father of bluegrass, played the mandolin.",
       "Which instrument did Bill Monroe, the father of bluegrass, play?"),
    # languages
    _f("language", "spanish", "Don Quixote", "Miguel de Cervantes wrote Don Quixote in Spanish; its first part "
       "appeared in 1605.", "In which language did Cervantes write Don Quixote?"),
    _f("language", "french", "Les Miserables", "Victor Hugo wrote Les Miserables in French; it was published "
       "in 1862.", "In what language did Victor Hugo write Les Miserables?"),
    _f("language", "german", "Goethe's Faust", "Johann Wolfgang von Goethe wrote his drama Faust in German.",
       "In which language did Goethe write Faust?"),
    _f("language", "italian", "Divine Comedy", "Dante Alighieri wrote the Divine Comedy in Italian rather than "
       "Latin.", "In what language did Dante write the Divine Comedy?"),
    _f("language", "japanese", "The Tale of Genji", "The Tale of Genji was written in Japanese by Murasaki "
       "Shikibu in the early 11th century.", "In which language did Murasaki Shikibu write The Tale of Genji?"),
    _f("language", "korean", "Hangul", "Hangul, the alphabet of the Korean language, was created under King "
       "Sejong in 1443.", "Which language is written in the Hangul alphabet created under King Sejong?"),
    _f("language", "mandarin", "Languages of China", "Mandarin is the most widely spoken language of China.",
       "What is the most widely spoken language in China?"),
    _f("language", "portuguese", "Language of Brazil", "Portuguese is the official language of Brazil.",
       "What is the official language of Brazil?"),
    _f("language", "arabic", "Language of Egypt", "Arabic is the official language of Egypt.",
       "What is the official language of Egypt?"),
    _f("language", "thai", "Language of Thailand", "Thai is the official language of Thailand.",
       "Which language is spoken in Bangkok?"),
    _f("language", "vietnamese", "Language of Vietnam", "Vietnamese is the national language of Vietnam.",
       "What is the national language of Vietnam?"),
    _f("language", "bahasa indonesia", "Language of Indonesia", "Bahasa Indonesia is the official language of "
       "Indonesia.", "What is the official language of Indonesia?"),
    # materials
    _f("material", "copper", "Statue of Liberty skin", "The outer skin of the Statue of Liberty is made of thin "
       "copper sheets.", "Which metal is the outer skin of the Statue of Liberty made of?"),
    _f("material", "titanium", "Guggenheim Museum Bilbao", "Frank Gehry's Guggenheim Museum Bilbao is clad in "
       "titanium panels.", "Which metal are the curving panels of the Guggenheim Museum Bilbao made of?"),
    _f("material", "stainless steel", "Cloud Gate", "Cloud Gate, the Bean in Chicago's Millennium Park, is made "
       "of polished stainless steel plates.", "What material is Chicago's Cloud Gate sculpture, the Bean, "
       "made of?"),
    _f("material", "aluminum", "Washington Monument", "The Washington Monument is capped with a small pyramid of "
       "aluminum, set in 1884.", "Which metal caps the top of the Washington Monument?"),
    _f("material", "cast iron", "Dutch oven", "A traditional Dutch oven is a heavy cooking pot of cast iron "
       "with a tight lid.", "What is a traditional Dutch oven made of?"),
    _f("material", "sterling silver", "Silver 925", "Sterling silver is an alloy of 92.5% silver, often stamped "
       "925.", "Which silver alloy is 92.5% silver and stamped 925?"),
    _f("material", "rose gold", "Pink gold", "Rose gold is a gold alloy with copper that gives it a pinkish "
       "color.", "Which gold alloy gets its pinkish color from copper?"),
    # animals
    _f("animal", "bear", "Winnie-the-Pooh", "Winnie-the-Pooh, created by A. A. Milne, is a teddy bear.",
       "What kind of animal is Winnie-the-Pooh?"),
    _f("animal", "carabao", "National animal of the Philippines", "The carabao, a water buffalo, is the national "
       "animal of the Philippines.", "What is the national animal of the Philippines?"),
    _f("animal", "cat", "Garfield", "Garfield, the lasagna-loving comic strip character by Jim Davis, is an "
       "orange tabby cat.", "What kind of animal is Garfield from the Jim Davis comic strip?"),
    _f("animal", "dinosaur", "Sue at the Field Museum", "Sue, at Chicago's Field Museum, is one of the most "
       "complete Tyrannosaurus rex skeletons: a dinosaur.", "What kind of animal is Sue, the famous skeleton "
       "at Chicago's Field Museum?"),
    _f("animal", "dog", "Laika", "Laika, the first animal to orbit the Earth on Sputnik 2 in 1957, was a dog "
       "from the streets of Moscow.", "What kind of animal was Laika, the first animal to orbit the Earth?"),
    _f("animal", "penguin", "Pingu", "Pingu, the Swiss claymation character, is a penguin.",
       "What animal is Pingu from the Swiss claymation series?"),
    _f("animal", "shark", "Jaws", "Jaws, Steven Spielberg's 1975 film, is about a great white shark.",
       "Which animal terrorizes the beach in Steven Spielberg's 1975 film Jaws?"),
    _f("animal", "tarsier", "Bohol", "The Philippine tarsier, one of the smallest primates, is the best-known "
       "animal of Bohol.", "Which tiny big-eyed primate is the best-known animal of Bohol?"),
    _f("animal", "unicorn", "National animal of Scotland", "The unicorn is the national animal of Scotland.",
       "What is the national animal of Scotland?"),
    _f("animal", "bunny", "Easter Bunny", "In German folklore the Easter Bunny, the Osterhase, brings eggs to "
       "children at Easter.", "Which animal brings eggs to children at Easter in German folklore?"),
    _f("animal", "bear", "Paddington", "Paddington, the character created by Michael Bond, is a bear from "
       "Peru.", "What kind of animal is Paddington from Michael Bond's books?"),
    _f("animal", "cat", "Tom and Jerry", "In Tom and Jerry, Tom is a grey and white cat who chases Jerry, a "
       "mouse.", "What kind of animal is Tom in the cartoon Tom and Jerry?"),
    _f("animal", "dog", "Snoopy", "Snoopy, Charlie Brown's pet in the Peanuts comic strip, is a beagle, a dog.",
       "What kind of animal is Snoopy from Peanuts?"),
)


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
