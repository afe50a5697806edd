"""Real, checkable facts whose answer is a catalog attribute value (a colour, flavour, scent, sport, instrument,
language, material or animal a title carries), asked as the official set asks: a specific, less-known detail (a
year, a prize, a named person, a festival of a town, a club's kit, a novel's language), never schoolbook trivia.

Each fact: the catalog key and value it answers, a document title and the sentence a web page states it in (the
world's offline corpus carries it, so web_search finds it), and one or two questions that never name the answer.
The purchase follows from the key (knowledge.RELATIONS). Only facts that standard references agree on; other values
of the same key stay out of a statement (or appear in its question) so the answer is the one value the page adds.
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
    # colors (color_family)
    _f("color_family", "red", "Vuelta a Espana leader's jersey",
       "Since 2010 the leader of the general classification of the Vuelta a Espana wears the red jersey, la roja.",
       "What color has the Vuelta a Espana leader's jersey been since 2010?"),
    _f("color_family", "red", "Flag of Kyrgyzstan",
       "The flag of Kyrgyzstan has a red field with a sun of forty rays, one for each of the forty Kyrgyz tribes, "
       "and a tunduk, the crown of a yurt, at its center.",
       "What color is the field of the flag of Kyrgyzstan?"),
    _f("color_family", "yellow", "L'Auto",
       "L'Auto, the Paris sports newspaper that organized the Tour de France, was printed on yellow paper, which "
       "gave the race leader's jersey, first worn in 1919, its color.",
       "What color paper was the sports newspaper L'Auto printed on?"),
    _f("color_family", "yellow", "Flag of Vatican City",
       "The flag of Vatican City has two vertical bands: a yellow band at the hoist and a white band bearing the "
       "crossed keys of Saint Peter under the papal tiara.",
       "What color is the band at the hoist of the Vatican City flag?"),
    _f("color_family", "pink", "La Gazzetta dello Sport",
       "La Gazzetta dello Sport, the Milan daily that founded the Giro d'Italia in 1909, is printed on pink paper, "
       "the color of the race leader's maglia rosa.",
       "Which color of paper is La Gazzetta dello Sport printed on?"),
    _f("color_family", "pink", "Juventus FC early kit",
       "Juventus played in pink shirts until 1903, when the Turin club adopted the striped shirts of the English "
       "club Notts County.",
       "What color did Juventus play in until 1903?"),
    _f("color_family", "green", "Flag of Libya (1977-2011)",
       "From 1977 to 2011, under Muammar Gaddafi, the flag of Libya was a plain green field with no emblem or "
       "design.", "What color was the flag of Libya from 1977 to 2011?"),
    _f("color_family", "blue", "Flag of Nauru",
       "The flag of Nauru has a blue field crossed by a narrow stripe for the Equator, with a twelve-pointed star "
       "for the island's twelve original tribes.",
       "What color is the field of the flag of Nauru?"),
    _f("color_family", "navy blue", "Tottenham Hotspur kit",
       "Tottenham Hotspur, the north London football club nicknamed Spurs, play at home in white shirts and navy "
       "blue shorts.",
       "What color are the shorts of Tottenham Hotspur's home kit?"),
    _f("color_family", "grey", "Manchester United grey kit",
       "In April 1996 Manchester United, 3-0 down at Southampton's ground The Dell, changed out of their grey away "
       "kit at half-time; Alex Ferguson said the players could not pick each other out.",
       "What color was the kit Manchester United changed out of at half-time at Southampton in 1996?"),
    _f("color_family", "brown", "Pullman brown",
       "UPS paints its delivery trucks Pullman brown, a shade named after the Pullman railroad sleeping cars.",
       "What color are UPS delivery trucks painted?"),
    _f("color_family", "brown", "Kodokan judo grades",
       "In Kodokan judo the adult kyu grades just below the first-dan black belt wear the brown belt.",
       "In Kodokan judo, which belt color comes just before black?"),
    _f("color_family", "beige", "Beige (color)",
       "Beige takes its name from a French word for wool cloth left undyed, in its natural color.",
       "Which color takes its name from the French word for undyed wool?"),
    _f("color_family", "orange", "Irving Morrow",
       "The consulting architect Irving Morrow chose International Orange for the Golden Gate Bridge, a color "
       "that stands out in the fog and suits the hills around it.",
       "What color did Irving Morrow choose for the Golden Gate Bridge?"),
    _f("color_family", "white", "Tour de France young rider classification",
       "The best young rider of the Tour de France, the best-placed rider aged 25 or under, wears the white jersey.",
       "What color is the jersey of the best young rider in the Tour de France?"),
    _f("color_family", "black", "Olympic rings",
       "In the Olympic rings Pierre de Coubertin designed in 1913, the top row is blue, black and red, with the black "
       "ring in the middle.",
       "What color is the middle ring in the top row of the Olympic rings?"),
    _f("color_family", "purple", "Flag of Dominica",
       "The flag of Dominica shows a Sisserou parrot, and thanks to its plumage it is one of only two national "
       "flags with the color purple; Nicaragua's is the other.",
       "Which color appears on the flags of only two countries, Dominica and Nicaragua?"),
    _f("color_family", "purple", "ACF Fiorentina",
       "ACF Fiorentina, the football club of Florence, wears purple shirts at home and is nicknamed La Viola.",
       "What color shirts does Fiorentina wear at home?"),
    # flavors
    _f("flavor", "mango", "Manggahan Festival",
       "Guimaras, an island province of the Philippines, is famous for its sweet mango and celebrates the fruit "
       "each year with the Manggahan Festival.",
       "Which fruit is celebrated at the Manggahan Festival of Guimaras?"),
    _f("flavor", "ube", "Good Shepherd Convent, Baguio",
       "The Good Shepherd Convent in Baguio is famous for its ube jam, made from purple yam by the sisters and "
       "bought by visitors as pasalubong.",
       "Which purple yam jam is the Good Shepherd Convent in Baguio famous for?"),
    _f("flavor", "calamansi", "Citrus microcarpa",
       "Calamansi (Citrus microcarpa), the small Philippine lime, is squeezed over pancit and used in juice.",
       "What is the Filipino name for Citrus microcarpa?"),
    _f("flavor", "coconut", "Buko pie of Los Banos",
       "Los Banos in Laguna is famous for buko pie, a pie filled with the soft meat of young coconut.",
       "What fruit fills the buko pie of Los Banos, Laguna?"),
    _f("flavor", "chocolate", "Sachertorte",
       "The Sachertorte, a chocolate cake with apricot jam, was created in Vienna in 1832 by the 16-year-old Franz "
       "Sacher for Prince Metternich.",
       "What flavor is the cake Franz Sacher created in 1832?"),
    _f("flavor", "vanilla", "Edmond Albius",
       "In 1841 Edmond Albius, a 12-year-old enslaved boy on Reunion, devised the quick way of hand-pollinating "
       "the vanilla orchid that growers still use.",
       "Which orchid did Edmond Albius learn to hand-pollinate in 1841?"),
    _f("flavor", "strawberry", "Amedee-Francois Frezier",
       "In 1714 the French engineer Amedee-Francois Frezier brought plants of the Chilean strawberry from Chile "
       "to France; crossed with a North American species, it gave the modern garden fruit.",
       "Which fruit did Amedee-Francois Frezier bring back from Chile in 1714?"),
    _f("flavor", "caramel", "Millionaire's shortbread",
       "Millionaire's shortbread is a bar of shortbread topped with a layer of caramel and then chocolate.",
       "What is the middle layer of millionaire's shortbread?"),
    _f("flavor", "caramel", "Leche flan",
       "Leche flan, the Filipino custard of egg yolks and condensed milk, is steamed in a llanera lined with "
       "caramel, which becomes its glossy top.",
       "What forms the glossy top of a Filipino leche flan?"),
    _f("flavor", "hazelnut", "Gianduja",
       "Gianduja, a sweet of Turin, is chocolate blended with hazelnut paste; confectioners stretched scarce cocoa "
       "with the nuts of Piedmont.",
       "Which nut is blended with chocolate to make gianduja?"),
    _f("flavor", "matcha", "Uji tea",
       "Uji, near Kyoto, is one of Japan's oldest tea districts and is best known for its matcha, the powdered "
       "tea whisked in the tea ceremony.",
       "Which powdered tea is the city of Uji famous for?"),
    _f("flavor", "barbecue", "Memphis in May",
       "The Memphis in May festival hosts the World Championship Barbecue Cooking Contest on the banks of the "
       "Mississippi in Memphis, Tennessee.",
       "What style of cooking has a world championship at Memphis in May?"),
    _f("flavor", "cheese", "Kesong puti",
       "Kesong puti is a soft white cheese made from carabao's milk, a specialty of Laguna and Bulacan.",
       "What kind of food is the Filipino kesong puti?"),
    _f("flavor", "sour cream", "Smetana",
       "Smetana, the sour cream of Eastern Europe, is spooned onto Ukrainian borscht and Russian pelmeni.",
       "What is smetana called in English?"),
    _f("flavor", "salted egg", "Itlog na maalat",
       "Itlog na maalat, the Filipino salted egg, is a duck egg cured in brine or in salted clay and dyed red.",
       "What is itlog na maalat called in English?"),
    _f("flavor", "honey", "Manuka honey",
       "Manuka honey is made by bees from the nectar of New Zealand's manuka tree and is often graded by its UMF "
       "rating.", "What do bees make from the nectar of New Zealand's manuka tree?"),
    _f("flavor", "ginger", "Gari",
       "Gari, the pink or pale pickled slices served with sushi, is young ginger marinated in sugar and vinegar.",
       "What is the sushi garnish gari made from?"),
    _f("flavor", "pandan", "Pandan cake",
       "Pandan cake, a light green chiffon cake flavored with the juice of pandan leaves, is a favorite in "
       "Singapore, Malaysia and Indonesia.",
       "Which leaf flavors the green chiffon cake of Singapore and Malaysia?"),
    _f("flavor", "durian", "Esplanade - Theatres on the Bay",
       "Singapore's Esplanade - Theatres on the Bay, opened in 2002, is nicknamed the durian for its spiky "
       "domes.", "Which fruit gave Singapore's Esplanade theatres their nickname?"),
    _f("flavor", "lemon", "Fete du Citron",
       "Menton on the French Riviera holds the Fete du Citron every February, with floats and sculptures built of "
       "lemon and orange fruit.",
       "Which fruit is celebrated at Menton's festival every February?"),
    _f("flavor", "peach", "Peach Melba",
       "Auguste Escoffier created the peach Melba at the Savoy Hotel in London in honour of the Australian "
       "soprano Nellie Melba.",
       "Which fruit is the star of the dessert Auguste Escoffier created for Nellie Melba?"),
    _f("flavor", "jasmine", "Fuzhou jasmine tea",
       "Fuzhou in Fujian province is known as the birthplace of jasmine tea, scented with fresh jasmine blossoms "
       "picked in summer.", "Which flower scents the famous tea of Fuzhou?"),
    _f("flavor", "green tea", "Longjing tea",
       "Longjing, or Dragon Well, grown around West Lake in Hangzhou, is a pan-roasted green tea.",
       "What type of tea is the Longjing of Hangzhou's West Lake?"),
    _f("flavor", "chamomile", "The Tale of Peter Rabbit",
       "In Beatrix Potter's The Tale of Peter Rabbit, Peter's mother puts him to bed with a dose of chamomile tea.",
       "What tea does Peter Rabbit's mother give him at bedtime?"),
    _f("flavor", "mint", "Mint julep",
       "The mint julep, bourbon with sugar and crushed mint over ice, is the traditional drink of the Kentucky "
       "Derby at Churchill Downs.",
       "Which herb goes into the Kentucky Derby's traditional julep?"),
    _f("flavor", "lemongrass", "Cebu lechon",
       "Cebu lechon is stuffed with lemongrass, called tanglad, with garlic and spring onions, so it is usually "
       "eaten without sauce.", "What aromatic grass is stuffed into Cebu's lechon?"),
    _f("flavor", "beef", "Matsusaka",
       "Matsusaka in Mie Prefecture is famous for Matsusaka beef, one of Japan's most prized brands of wagyu.",
       "Which meat is the city of Matsusaka famous for?"),
    _f("flavor", "chicken", "Noli Me Tangere tinola",
       "In chapter 3 of Jose Rizal's Noli Me Tangere, Capitan Tiago's guests are served a tinola of chicken, and "
       "Padre Damaso finds only the neck and a wing in his bowl.",
       "What meat was in the tinola at Capitan Tiago's dinner in Noli Me Tangere?"),
    _f("flavor", "chicken", "Bacolod inasal",
       "Bacolod in Negros Occidental is famous for its chicken inasal, marinated and grilled over charcoal.",
       "What meat is Bacolod's famous inasal made from?"),
    _f("flavor", "lamb", "Kleftiko",
       "Kleftiko is a Greek dish of lamb slow-baked in a sealed pot, named after the klephts, mountain bandits "
       "who cooked in hidden pits.", "Which meat is slow-baked in the Greek dish kleftiko?"),
    _f("flavor", "salmon", "Gravlax",
       "Gravlax is a Nordic dish of raw salmon cured with salt, sugar and dill.",
       "Which fish is cured to make Nordic gravlax?"),
    _f("flavor", "liver", "Lechon sauce",
       "The traditional Filipino sarsa for lechon is made from mashed liver, usually pork, with vinegar, sugar and "
       "breadcrumbs.",
       "Which organ meat is the Filipino lechon sauce sarsa made from?"),
    _f("flavor", "bacon", "Pancetta",
       "Pancetta is Italian bacon: pork belly cured with salt, pepper and spices.",
       "What is the Italian pancetta called in English?"),
    # scents
    _f("scent", "lavender", "Senanque Abbey",
       "The Cistercian Abbaye Notre-Dame de Senanque near Gordes in Provence is famous for the lavender that "
       "blooms in the fields in front of it each summer.",
       "Which flower blooms each summer in front of Senanque Abbey?"),
    _f("scent", "jasmine", "Mo Li Hua",
       "Mo Li Hua is a Chinese folk song about the jasmine flower; Giacomo Puccini used its melody in his opera "
       "Turandot.", "Which flower is the Chinese folk song Mo Li Hua about?"),
    _f("scent", "jasmine", "Tunisian Revolution",
       "The Tunisian Revolution of 2010-2011 is often called the Jasmine Revolution, after the country's national "
       "flower.", "Which flower gave its name to the Tunisian Revolution of 2010-2011?"),
    _f("scent", "sampaguita", "Proclamation No. 652",
       "In 1934 Governor-General Frank Murphy proclaimed the sampaguita (Jasminum sambac) the national flower of "
       "the Philippines.",
       "Which flower was proclaimed the national flower of the Philippines in 1934?"),
    _f("scent", "rose", "Rose Valley of Kazanlak",
       "The valley around Kazanlak in Bulgaria, the Rose Valley, distills much of the world's rose oil and holds "
       "a Rose Festival each June.",
       "Which flower is distilled into oil in Bulgaria's Kazanlak valley?"),
    _f("scent", "vanilla", "Shalimar",
       "Shalimar, the perfume Jacques Guerlain created in 1925, is famous for its rich vanilla base.",
       "Which base note is Guerlain's Shalimar famous for?"),
    _f("scent", "sandalwood", "Mysore",
       "Mysore in Karnataka is famous for its sandalwood, carved into boxes and figures and distilled into the "
       "oil of Mysore Sandal Soap.",
       "Which fragrant wood is the Indian city of Mysore famous for?"),
    _f("scent", "citrus", "Eau de Cologne",
       "The original Eau de Cologne, which Johann Maria Farina created in Cologne in 1709, is a fresh citrus "
       "fragrance of bergamot and other fruit.",
       "To which fragrance family does Johann Maria Farina's 1709 Eau de Cologne belong?"),
    _f("scent", "eucalyptus", "Blue Mountains",
       "The blue haze of the Blue Mountains west of Sydney comes from droplets of oil given off by the eucalyptus "
       "forests.", "Which trees give the Blue Mountains their blue haze?"),
    _f("scent", "ylang-ylang", "Cananga odorata",
       "Ylang-ylang (Cananga odorata), a tropical flower grown for perfumery, takes its name from the Tagalog "
       "ilang-ilang; the Comoros are among its largest producers.",
       "Which perfume flower, Cananga odorata, takes its name from a Tagalog word?"),
    _f("scent", "green tea", "Eau Parfumee au The Vert",
       "Eau Parfumee au The Vert, composed by Jean-Claude Ellena for Bulgari in 1992, is a fragrance built on "
       "green tea.", "Which tea inspired Jean-Claude Ellena's 1992 fragrance for Bulgari?"),
    _f("scent", "cherry blossom", "Jinhae Gunhangje",
       "The Jinhae Gunhangje, held each spring in Changwon, is South Korea's largest cherry blossom festival.",
       "Which blossom is celebrated at the Jinhae Gunhangje festival in South Korea?"),
    _f("scent", "peony", "Indiana state flower",
       "The peony has been the state flower of Indiana since 1957, when it replaced the zinnia.",
       "Which flower has been the state flower of Indiana since 1957?"),
    _f("scent", "lemongrass", "Cochin grass",
       "Cymbopogon flexuosus, also called Cochin grass or Malabar grass, is East Indian lemongrass, grown in Kerala "
       "and distilled into an oil for soaps and perfumes.",
       "What kind of aromatic grass is Cymbopogon flexuosus?"),
    _f("scent", "gardenia", "Billie Holiday",
       "The jazz singer Billie Holiday wore a white gardenia in her hair on stage as her trademark.",
       "Which flower did Billie Holiday wear in her hair on stage as her trademark?"),
    _f("scent", "orchid", "Vanda Miss Joaquim",
       "Vanda Miss Joaquim, a hybrid orchid bred by Agnes Joaquim in Singapore in 1893, became Singapore's national "
       "flower in 1981.",
       "What kind of flower did Agnes Joaquim breed in Singapore in 1893?"),
    _f("scent", "orchid", "Waling-waling",
       "The waling-waling (Vanda sanderiana), an orchid called the queen of Philippine orchids, grows wild on "
       "Mindanao.",
       "What kind of flower is the waling-waling of Mindanao?"),
    # sports
    _f("sport", "basketball", "Tim Duncan",
       "Tim Duncan swam competitively on Saint Croix until Hurricane Hugo destroyed the island's only Olympic-size "
       "pool in 1989; he then took up basketball and became a five-time NBA champion.",
       "Which sport did Tim Duncan take up after Hurricane Hugo in 1989?"),
    _f("sport", "basketball", "Philippine Basketball Association",
       "The PBA, founded in 1975, is the first professional basketball league in Asia.",
       "Which sport is played in the Philippines' PBA, founded in 1975?"),
    _f("sport", "volleyball", "William G. Morgan",
       "William G. Morgan devised volleyball at the YMCA in Holyoke, Massachusetts, in 1895 and first called it "
       "Mintonette.",
       "Which sport did William G. Morgan invent in 1895 under the name Mintonette?"),
    _f("sport", "volleyball", "Karch Kiraly",
       "Karch Kiraly is the only player to win Olympic gold in volleyball both indoors (1984, 1988) and on the "
       "beach (1996).",
       "In which sport did Karch Kiraly win Olympic gold both indoors and on the beach?"),
    _f("sport", "badminton", "Badminton House",
       "Badminton takes its name from Badminton House, the Duke of Beaufort's country house in Gloucestershire.",
       "Which racket sport is named after the Duke of Beaufort's country house?"),
    _f("sport", "badminton", "Lin Dan",
       "China's Lin Dan won the Olympic men's singles title in badminton at Beijing 2008 and London 2012.",
       "In which sport did Lin Dan win Olympic gold in 2008 and 2012?"),
    _f("sport", "tennis", "Walter Clopton Wingfield",
       "In 1874 Major Walter Clopton Wingfield patented a game he called sphairistike, an early form of lawn "
       "tennis.", "Which sport did Walter Clopton Wingfield patent as sphairistike in 1874?"),
    _f("sport", "tennis", "Althea Gibson",
       "In 1956 Althea Gibson won the French Championships, the first Black player to win a Grand Slam title in "
       "tennis; she later played professional golf.",
       "In which sport was Althea Gibson the first Black Grand Slam champion?"),
    _f("sport", "football", "Azkals",
       "The Philippines national football team is nicknamed the Azkals, from askal, the Filipino word for a street "
       "dog.", "Which sport does the Philippine national team nicknamed the Azkals play?"),
    _f("sport", "table tennis", "Ping-pong diplomacy",
       "At the 1971 World Table Tennis Championships in Nagoya the American Glenn Cowan met China's Zhuang Zedong, "
       "which led to the US team's visit to China.",
       "At which sport's 1971 world championships did Glenn Cowan meet Zhuang Zedong?"),
    _f("sport", "squash", "Jahangir Khan",
       "Pakistan's Jahangir Khan went unbeaten in squash for 555 matches between 1981 and 1986.",
       "In which sport did Jahangir Khan go unbeaten for 555 matches?"),
    _f("sport", "handball", "Nikola Karabatic",
       "France's Nikola Karabatic won Olympic gold in handball in 2008 and 2012 and several world titles.",
       "Which sport did Nikola Karabatic play for France?"),
    _f("sport", "futsal", "Juan Carlos Ceriani",
       "Juan Carlos Ceriani devised futsal, an indoor five-a-side football, at a YMCA in Montevideo in 1930.",
       "Which indoor form of football did Juan Carlos Ceriani devise in 1930?"),
    _f("sport", "futsal", "Falcao",
       "Falcao, the Brazilian Alessandro Rosa Vieira, is widely regarded as the greatest futsal player of all "
       "time.", "Which indoor sport did the Brazilian star Falcao play?"),
    # instruments
    _f("instrument", "violin", "Albert Einstein",
       "Albert Einstein played the violin from childhood and nicknamed his instrument Lina.",
       "What instrument did Albert Einstein call Lina?"),
    _f("instrument", "violin", "Messiah Stradivarius",
       "The Messiah Stradivarius, made by Antonio Stradivari in 1716, is a violin kept in the Ashmolean Museum in "
       "Oxford.", "What kind of instrument is the 1716 Messiah Stradivarius?"),
    _f("instrument", "viola", "Harold en Italie",
       "Hector Berlioz wrote Harold en Italie (1834), a symphony with a solo part for the viola, after Niccolo "
       "Paganini asked him for a work for the instrument.",
       "Which instrument plays the solo in Berlioz's Harold en Italie?"),
    _f("instrument", "cello", "Bach's suites and Pablo Casals",
       "At 13 Pablo Casals found a score of J. S. Bach's six suites for solo cello in a Barcelona music shop; "
       "he later made them famous.",
       "Which instrument are the Bach suites Pablo Casals found in a Barcelona shop written for?"),
    _f("instrument", "cello", "Jacqueline du Pre",
       "Jacqueline du Pre recorded Elgar's Cello Concerto with John Barbirolli and the London Symphony Orchestra in "
       "1965.", "Which instrument did Jacqueline du Pre play in Elgar's concerto?"),
    _f("instrument", "guitar", "Django Reinhardt",
       "After a caravan fire in 1928 left two fingers of his left hand badly burned, Django Reinhardt played the "
       "guitar using mainly his two good fingers.",
       "Which instrument did Django Reinhardt play with only two good fingers?"),
    _f("instrument", "guitar", "Recuerdos de la Alhambra",
       "Francisco Tarrega wrote Recuerdos de la Alhambra (1896), a tremolo study for the classical guitar.",
       "For which instrument did Francisco Tarrega write Recuerdos de la Alhambra?"),
    _f("instrument", "bass guitar", "Jaco Pastorius",
       "Jaco Pastorius played the fretless bass guitar in the jazz fusion band Weather Report.",
       "Which instrument did Jaco Pastorius play in Weather Report?"),
    _f("instrument", "bass guitar", "Fender Precision Bass",
       "The Fender Precision, introduced by Leo Fender in 1951, was the first mass-produced electric bass guitar.",
       "What kind of instrument was Leo Fender's 1951 Precision?"),
    _f("instrument", "ukulele", "Machete (instrument)",
       "The ukulele grew in Hawaii from the machete, a small four-string instrument brought by Portuguese "
       "immigrants from Madeira from 1879.",
       "Which Hawaiian instrument grew out of the Portuguese machete?"),
    _f("instrument", "mandolin", "Chris Thile",
       "Chris Thile plays the mandolin in the bands Nickel Creek and Punch Brothers.",
       "Which instrument does Chris Thile play in Punch Brothers?"),
    _f("instrument", "mandolin", "Concerto RV 532",
       "Antonio Vivaldi's Concerto in G major, RV 532, is written for two mandolin soloists and strings.",
       "Which instrument is Vivaldi's double concerto RV 532 written for?"),
    _f("instrument", "banjo", "The Crow (Steve Martin album)",
       "Steve Martin's album of his own tunes for the five-string banjo, The Crow, won the Grammy for Best "
       "Bluegrass Album in 2010.",
       "Which instrument does Steve Martin play on his Grammy-winning album The Crow?"),
    # languages
    _f("language", "spanish", "Languages of Equatorial Guinea",
       "Spanish is the main official language of Equatorial Guinea, the only sovereign state in Africa where it "
       "is official.", "What is the main official language of Equatorial Guinea?"),
    _f("language", "french", "Waiting for Godot",
       "The Irish writer Samuel Beckett first wrote Waiting for Godot in French, as En attendant Godot, and later "
       "translated it into English himself.",
       "In which language did Samuel Beckett first write Waiting for Godot?"),
    _f("language", "french", "Languages of Vanuatu",
       "Vanuatu has three official languages: Bislama, English and French.",
       "Besides Bislama and English, which language is official in Vanuatu?"),
    _f("language", "german", "Languages of Liechtenstein",
       "German is the official language of the Principality of Liechtenstein.",
       "What is the official language of Liechtenstein?"),
    _f("language", "italian", "Languages of Ticino",
       "Italian is the official language of Ticino, the southernmost canton of Switzerland.",
       "What is the official language of the Swiss canton of Ticino?"),
    _f("language", "italian", "The Name of the Rose",
       "Umberto Eco wrote his 1980 novel The Name of the Rose, Il nome della rosa, in Italian.",
       "In which language did Umberto Eco write The Name of the Rose?"),
    _f("language", "japanese", "Norwegian Wood (novel)",
       "Haruki Murakami wrote his 1987 novel Norwegian Wood in Japanese.",
       "In which language did Haruki Murakami write Norwegian Wood?"),
    _f("language", "korean", "The Vegetarian",
       "Han Kang wrote The Vegetarian in Korean; Deborah Smith's English translation won the Man Booker "
       "International Prize in 2016.",
       "In which language did Han Kang write The Vegetarian?"),
    _f("language", "mandarin", "Languages of Singapore",
       "Singapore's four official languages are English, Malay, Mandarin and Tamil.",
       "Besides English, Malay and Tamil, what is the fourth official language of Singapore?"),
    _f("language", "portuguese", "Languages of Macau",
       "Portuguese is an official language of Macau alongside Chinese, a legacy of Portuguese rule until 1999.",
       "Besides Chinese, which language is official in Macau?"),
    _f("language", "portuguese", "Blindness (novel)",
       "Jose Saramago, winner of the 1998 Nobel Prize in Literature, wrote Blindness, Ensaio sobre a Cegueira, "
       "in Portuguese.", "In which language did Jose Saramago write Blindness?"),
    _f("language", "arabic", "Season of Migration to the North",
       "The Sudanese writer Tayeb Salih wrote his 1966 novel Season of Migration to the North in Arabic.",
       "In which language did Tayeb Salih write Season of Migration to the North?"),
    _f("language", "arabic", "Languages of Chad",
       "Chad has two official languages, French and Arabic.",
       "Besides French, which language is official in Chad?"),
    _f("language", "thai", "Ram Khamhaeng",
       "The Thai script is traditionally credited to King Ram Khamhaeng of Sukhothai, who is said to have created "
       "it in 1283.", "Which language's script is traditionally credited to King Ram Khamhaeng?"),
    _f("language", "bahasa indonesia", "Youth Pledge",
       "The Youth Pledge (Sumpah Pemuda) of 28 October 1928 upheld Bahasa Indonesia as the language of unity.",
       "Which language did the 1928 Youth Pledge uphold as the language of unity?"),
    _f("language", "bahasa indonesia", "This Earth of Mankind",
       "Pramoedya Ananta Toer composed This Earth of Mankind, the first book of his Buru Quartet, in Bahasa "
       "Indonesia while a prisoner on Buru island.",
       "In which language did Pramoedya Ananta Toer write This Earth of Mankind?"),
    _f("language", "vietnamese", "Chu Quoc ngu",
       "Chu Quoc ngu, the Latin script of Vietnamese, owes much to the Jesuit Alexandre de Rhodes, whose "
       "dictionary appeared in Rome in 1651.",
       "Which language's Latin alphabet owes much to Alexandre de Rhodes?"),
    # materials (pans and necklaces)
    _f("material", "copper", "Chuquicamata",
       "Chuquicamata in northern Chile is one of the largest open-pit copper mines in the world.",
       "Which metal is mined at Chuquicamata in Chile?"),
    _f("material", "copper", "Aes Cyprium",
       "Copper takes its name from the Latin cuprum, from aes Cyprium, the metal of Cyprus, where the Romans "
       "mined it.", "Which metal's name comes from the Latin aes Cyprium?"),
    _f("material", "titanium", "Lockheed SR-71 Blackbird",
       "The airframe of the Lockheed SR-71 Blackbird was built mostly of titanium to withstand the heat of flight "
       "above Mach 3.", "What metal was most of the SR-71 Blackbird's airframe made of?"),
    _f("material", "titanium", "William Gregor",
       "In 1791 William Gregor, a Cornish clergyman, discovered titanium in a black sand from the Manaccan valley; "
       "Martin Heinrich Klaproth gave the metal its name in 1795.",
       "Which metal did William Gregor discover in 1791?"),
    _f("material", "stainless steel", "Harry Brearley",
       "Harry Brearley of Sheffield is credited with inventing stainless steel, his rustless steel, in 1913.",
       "Which alloy is Harry Brearley credited with inventing in 1913?"),
    _f("material", "stainless steel", "Chrysler Building spire",
       "The spire of New York's Chrysler Building is clad in Nirosta, a German stainless steel.",
       "What material is the Chrysler Building's spire clad in?"),
    _f("material", "aluminum", "Washington Monument capstone",
       "The Washington Monument is capped with a small pyramid of aluminum, set in 1884, when the metal was rare.",
       "What metal is the pyramid on top of the Washington Monument made of?"),
    _f("material", "aluminum", "Hall-Heroult process",
       "In 1886 Charles Martin Hall and Paul Heroult independently found the electrolytic process that made "
       "aluminum cheap.",
       "Which metal did Charles Martin Hall and Paul Heroult learn to smelt cheaply in 1886?"),
    _f("material", "cast iron", "Tetsubin",
       "A Japanese tetsubin is a kettle of cast iron, traditionally heated over charcoal.",
       "What is a Japanese tetsubin kettle made of?"),
    _f("material", "cast iron", "Lodge Cast Iron",
       "Lodge, founded by Joseph Lodge in South Pittsburg, Tennessee, in 1896, makes cast iron skillets.",
       "What are Lodge's classic skillets made of?"),
    _f("material", "sterling silver", "Lion passant hallmark",
       "In England, sterling silver, 92.5% pure, is hallmarked with a lion passant.",
       "Which silver standard is hallmarked with a lion passant in England?"),
    _f("material", "rose gold", "Russian gold",
       "Rose gold, an alloy of gold and copper, was fashionable in 19th-century Russia and is also called Russian "
       "gold.", "Which alloy of gold and copper is also known as Russian gold?"),
    _f("material", "gold plated", "Voyager Golden Record",
       "The Voyager Golden Records, carried by Voyager 1 and 2 since 1977, are gold plated copper phonograph "
       "discs.", "What finish covers the copper records on the Voyager probes?"),
    _f("material", "carbon steel", "Wok",
       "The most common material for modern woks is carbon steel, which is light and takes a seasoning.",
       "What is the most common material for modern woks?"),
    # animals (plush toys)
    _f("animal", "bear", "Winnie (bear)",
       "Winnie, a bear brought from Winnipeg by Lieutenant Harry Colebourn, lived at London Zoo and inspired A. A. "
       "Milne's Winnie-the-Pooh.",
       "What kind of animal was Harry Colebourn's Winnie?"),
    _f("animal", "bear", "Wojtek",
       "Wojtek was a Syrian brown bear enlisted as a soldier of the Polish II Corps, with which he served at the "
       "Battle of Monte Cassino.", "What animal was Wojtek of the Polish II Corps?"),
    _f("animal", "bunny", "Miffy",
       "Miffy, Nijntje in Dutch, created by Dick Bruna in 1955, is a small female bunny.",
       "What animal is Dick Bruna's Nijntje?"),
    _f("animal", "bunny", "Harvey (film)",
       "In the 1950 film Harvey, James Stewart's friend is a pooka in the form of an invisible six-foot bunny.",
       "What animal is the invisible Harvey in the 1950 James Stewart film?"),
    _f("animal", "cat", "Larry (cat)",
       "Larry, a tabby cat, has been Chief Mouser to the Cabinet Office at 10 Downing Street since 2011.",
       "What animal is Larry of 10 Downing Street?"),
    _f("animal", "cat", "Felicette",
       "Felicette, launched by France on 18 October 1963, was the first cat in space.",
       "What kind of animal did France send into space in October 1963?"),
    _f("animal", "dog", "Balto",
       "Balto, a Siberian husky sled dog, led the final leg of the 1925 serum run to Nome, Alaska; his statue "
       "stands in Central Park.", "What animal was Balto of the 1925 serum run to Nome?"),
    _f("animal", "dinosaur", "Sue (dinosaur)",
       "Sue, the Tyrannosaurus rex at Chicago's Field Museum, is a dinosaur skeleton named after Sue Hendrickson, "
       "who found it in South Dakota in 1990.",
       "What kind of animal did Sue Hendrickson find in South Dakota in 1990?"),
    _f("animal", "dinosaur", "Dippy",
       "Dippy, the cast of a Diplodocus skeleton that Andrew Carnegie gave London's Natural History Museum in "
       "1905, is a dinosaur.",
       "What kind of animal is Dippy at London's Natural History Museum?"),
    _f("animal", "penguin", "Nils Olav",
       "Sir Nils Olav, a king penguin at Edinburgh Zoo, is the mascot of the Norwegian King's Guard and was "
       "knighted in 2008.", "What animal is Sir Nils Olav of the Norwegian King's Guard?"),
    _f("animal", "unicorn", "Royal coat of arms of the United Kingdom",
       "On the royal coat of arms of the United Kingdom the shield is supported by a lion for England and a "
       "unicorn for Scotland.",
       "Which creature stands for Scotland on the royal coat of arms of the United Kingdom?"),
    _f("animal", "shark", "Bruce (Jaws)",
       "The mechanical shark built for Steven Spielberg's 1975 film Jaws was nicknamed Bruce, after Spielberg's "
       "lawyer.", "What kind of animal was the mechanical Bruce in Spielberg's 1975 film?"),
    _f("animal", "shark", "The Physical Impossibility of Death",
       "Damien Hirst's The Physical Impossibility of Death in the Mind of Someone Living (1991) is a tiger shark "
       "preserved in formaldehyde.",
       "What animal is preserved in Damien Hirst's The Physical Impossibility of Death in the Mind of Someone Living?"),
    _f("animal", "carabao", "Pulilan Carabao Festival",
       "At the Carabao Festival of Pulilan, Bulacan, held each May for San Isidro Labrador, trained carabaos kneel "
       "before the church.",
       "Which animals kneel before the church of Pulilan at the San Isidro festival?"),
    _f("animal", "tarsier", "Philippine tarsier",
       "The Philippine tarsier (Carlito syrichta), one of the smallest primates, is protected at a sanctuary in "
       "Corella, Bohol.", "What kind of primate is Carlito syrichta of Bohol?"),
)


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
