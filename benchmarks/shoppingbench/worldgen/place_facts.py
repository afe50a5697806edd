"""Real facts whose answer a themed listing carries in its title: a city or a country (souvenir fridge magnets,
wall art prints), a coffee's country of origin, a year (vintage birthday T-shirts), a first name (name necklaces),
as the official set asks them ("In which city did Marina Abramović perform 'Rhythm 0' in 1974? I would like to
purchase a fridge magnet themed around this city").

`value` is lower case as catalog attributes are; the catalog's title carries it title-cased. The values the catalog
offers for each key are the answers here (PLACES, ORIGINS, YEARS, NAMES), so every listing of those kinds can be a
target and its rivals differ only in the answer. The questions are quiz-style and specific (an award, a premiere, a
tournament, a birthplace), mostly not about the product itself: the origin of a coffee is asked through a runner,
a laureate or a war, a T-shirt's year through a launch or a first. No question names another answer of its key.
"""

from __future__ import annotations

from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.real_facts import Fact


def _p(key: str, value: str, title: str, statement: str, questions: tuple[str, ...],
       purchases: tuple[str, ...]) -> Fact:
    return Fact(key, value, title, statement, questions, purchases)


CITY = ("I would like to purchase {phrase} themed around this city.",
        "I would like to purchase {phrase} featuring this city for my home decoration.")
CITY_SHOWN = ("I would like to buy {phrase} that shows this city.",
              "I would like to purchase {phrase} featuring that city.")
COUNTRY = ("I would like to purchase {phrase} that represents this country.",
           "I would like to purchase {phrase} themed around that country as a world travel souvenir.")
ORIGIN = ("I would like to purchase {phrase} sourced from that country.",
          "I would like to purchase {phrase} grown in this country.")
ORIGIN_FROM = ("I am interested in purchasing {phrase} from this country.",
               "I would like to purchase {phrase} that comes from that country.")
YEAR = ("I would like to purchase {phrase} that features this year in its design.",
        "I would like to purchase {phrase} celebrating that year.")
YEAR_MARK = ("I am interested in purchasing {phrase} marking this year.",
             "I would like to purchase {phrase} with that year printed on the front.")
NAME = ("I would like to purchase {phrase} featuring this first name.",
        "I would like to purchase {phrase} that spells out that name.")
NAME_SPELT = ("I would like to purchase {phrase} personalized with this name.",
              "I would like to purchase {phrase} featuring that first name.")
"""How the purchase ties to the answer, in the official set's words, for the products each key themes."""

PLACE_FACTS: tuple[Fact, ...] = (
    # cities a souvenir magnet or a skyline print shows
    _p("place", "naples", "Rhythm 0",
       "Marina Abramović performed Rhythm 0 in 1974 at Studio Morra in Naples, Italy, offering the audience 72 "
       "objects to use on her for six hours.",
       ("In which city did Marina Abramović perform 'Rhythm 0' in 1974?",), CITY),
    _p("place", "kyoto", "Kinkaku-ji",
       "Kinkaku-ji, the Temple of the Golden Pavilion in Kyoto, was burned down in 1950 by a young novice monk; "
       "the arson inspired Yukio Mishima's 1956 novel The Temple of the Golden Pavilion.",
       ("Which city is the setting of Yukio Mishima's novel about the 1950 burning of a Zen temple?",
        "Which Japanese city's Golden Pavilion was burned down by a monk in 1950?"), CITY),
    _p("place", "lisbon", "1755 Lisbon earthquake",
       "On All Saints' Day, 1 November 1755, an earthquake followed by a tsunami and fires destroyed much of "
       "Lisbon, the Portuguese capital.",
       ("Which European capital was destroyed by an earthquake on All Saints' Day in 1755?",), CITY),
    _p("place", "hamburg", "The Beatles in Hamburg",
       "Between 1960 and 1962 the Beatles played long residencies in Hamburg, at the Indra Club, the Kaiserkeller, "
       "the Top Ten Club and the Star-Club on and around the Reeperbahn.",
       ("In which German city did the Beatles play their 1960 club residencies?",),
       CITY),
    _p("place", "salzburg", "Salzburg Festival",
       "The Salzburg Festival was founded in 1920 by Max Reinhardt, Hugo von Hofmannsthal and Richard Strauss; it "
       "opened with Hofmannsthal's play Jedermann performed on the square in front of the cathedral.",
       ("In which city did Max Reinhardt and Hugo von Hofmannsthal found a festival in 1920?",), CITY),
    _p("place", "havana", "José Raúl Capablanca",
       "José Raúl Capablanca, world chess champion from 1921 to 1927, was born in Havana, Cuba, in 1888.",
       ("Which city was the chess champion José Raúl Capablanca born in?",), CITY),
    _p("place", "cebu", "Magellan's Cross",
       "Magellan's Cross, planted by the expedition of Ferdinand Magellan in 1521, stands in a chapel beside the "
       "Basilica del Santo Niño in Cebu City, Philippines.",
       ("In which Philippine city does Magellan's Cross stand?",), CITY_SHOWN),
    _p("place", "vigan", "Historic Town of Vigan",
       "Vigan, in Ilocos Sur, is a Spanish colonial town known for the cobblestoned Calle Crisologo; it was "
       "inscribed on the UNESCO World Heritage List in 1999.",
       ("Which town in Ilocos Sur is known for the cobblestoned Calle Crisologo?",), CITY),
    _p("place", "melbourne", "1956 Summer Olympics",
       "Melbourne hosted the 1956 Summer Olympics, the first Olympic Games held in the Southern Hemisphere; "
       "quarantine rules sent the equestrian events to another country.",
       ("Which city hosted the 1956 Summer Olympics?",),
       CITY_SHOWN),
    _p("place", "stockholm", "1912 Summer Olympics",
       "Stockholm hosted the 1912 Summer Olympics, at which the American Jim Thorpe won both the pentathlon and "
       "the decathlon.",
       ("In which city did Jim Thorpe win the Olympic pentathlon and decathlon?",),
       CITY),
    _p("place", "amsterdam", "Bed-In for Peace",
       "John Lennon and Yoko Ono held their first Bed-In for Peace in March 1969 at the Hilton hotel in "
       "Amsterdam, days after their wedding in Gibraltar.",
       ("Where did John Lennon and Yoko Ono stage their first Bed-In for Peace?",), CITY),
    _p("place", "montreal", "Give Peace a Chance",
       "John Lennon and Yoko Ono recorded 'Give Peace a Chance' on 1 June 1969 in their room at the Queen Elizabeth "
       "Hotel in Montreal during their second Bed-In.",
       ("Which city was 'Give Peace a Chance' recorded in?",), CITY_SHOWN),
    _p("place", "prague", "Don Giovanni",
       "Mozart's opera Don Giovanni premiered on 29 October 1787 at the Estates Theatre in Prague.",
       ("In which city did Mozart's opera 'Don Giovanni' premiere in 1787?",
        "Which city's Estates Theatre staged the premiere of Mozart's 'Don Giovanni'?"), CITY),
    _p("place", "vienna", "Symphony No. 9 (Beethoven)",
       "Beethoven's Ninth Symphony premiered on 7 May 1824 at the Theater am Kärntnertor in Vienna.",
       ("Which city saw the first performance of Beethoven's Ninth Symphony?",), CITY),
    _p("place", "venice", "Venice Film Festival",
       "The Venice Film Festival, first held in 1932, is the oldest film festival in the world; its top prize is "
       "the Golden Lion.",
       ("Which city hosts the world's oldest film festival?",), CITY_SHOWN),
    _p("place", "barcelona", "Antoni Gaudí",
       "The architect Antoni Gaudí was struck by a tram in Barcelona on 7 June 1926 and died three days later.",
       ("In which city was Antoni Gaudí struck by a tram?",), CITY),
    _p("place", "florence", "David (Michelangelo)",
       "Michelangelo's marble statue of David was unveiled in 1504 in front of the Palazzo Vecchio on the Piazza "
       "della Signoria in Florence.",
       ("In which city was Michelangelo's David unveiled in 1504?",), CITY),
    _p("place", "edinburgh", "Alexander Graham Bell",
       "Alexander Graham Bell, credited with patenting the first practical telephone, was born in Edinburgh, "
       "Scotland, on 3 March 1847.",
       ("Which city was Alexander Graham Bell born in?",), CITY_SHOWN),
    _p("place", "dublin", "Messiah (Handel)",
       "Handel's oratorio Messiah was first performed on 13 April 1742 at the Great Music Hall on Fishamble Street "
       "in Dublin.",
       ("Where was Handel's 'Messiah' first performed in 1742?",
        "Which city's Fishamble Street music hall saw the premiere of Handel's 'Messiah'?"), CITY),
    _p("place", "istanbul", "2005 UEFA Champions League final",
       "The 2005 UEFA Champions League final was played at the Atatürk Olympic Stadium in Istanbul; Liverpool came "
       "back from 3-0 down against AC Milan and won on penalties.",
       ("In which city did Liverpool win the 2005 Champions League final?",), CITY),
    _p("place", "marrakech", "Marrakesh Agreement",
       "The agreement establishing the World Trade Organization was signed in Marrakech, Morocco, on 15 April "
       "1994.",
       ("In which city was the agreement establishing the World Trade Organization signed?",),
       CITY_SHOWN),
    _p("place", "cairo", "The Cairo Trilogy",
       "Naguib Mahfouz's trilogy Palace Walk, Palace of Desire and Sugar Street follows a family in Cairo; its "
       "volumes are named after streets of the city, and Mahfouz won the 1988 Nobel Prize in Literature.",
       ("In which city is Naguib Mahfouz's novel 'Palace Walk' set?",),
       CITY),
    _p("place", "seoul", "Ben Johnson at the 1988 Olympics",
       "At the 1988 Summer Olympics in Seoul, Ben Johnson won the 100 metres in 9.79 seconds and was then disqualified "
       "after testing positive for stanozolol.",
       ("In which city was Ben Johnson stripped of his 1988 Olympic 100 metres gold?",),
       CITY),
    _p("place", "sydney", "Sydney Opera House",
       "The Sydney Opera House, designed by the Danish architect Jørn Utzon after he won a 1957 competition, was "
       "opened by Queen Elizabeth II in 1973.",
       ("Which city's opera house was designed by Jørn Utzon?",), CITY_SHOWN),
    _p("place", "rome", "La Dolce Vita",
       "In Federico Fellini's 1960 film La Dolce Vita, Anita Ekberg wades into the Trevi Fountain in Rome.",
       ("Which city's fountain does Anita Ekberg wade into in 'La Dolce Vita'?",),
       CITY),
    _p("place", "mexico city", "Bob Beamon",
       "At the 1968 Summer Olympics in Mexico City, Bob Beamon long-jumped 8.90 metres, a world record that stood "
       "for almost 23 years.",
       ("Where did Bob Beamon set his long jump world record in 1968?",), CITY),
    _p("place", "sapporo", "1972 Winter Olympics",
       "Sapporo, on the Japanese island of Hokkaido, hosted the 1972 Winter Olympics, the first Winter Games held "
       "in Asia.",
       ("Which city hosted the 1972 Winter Olympics?",), CITY_SHOWN),
    _p("place", "bruges", "In Bruges",
       "In Martin McDonagh's 2008 film In Bruges, two hitmen played by Colin Farrell and Brendan Gleeson are sent "
       "to lie low in the Belgian city of Bruges.",
       ("In which Belgian city do Martin McDonagh's hitmen lie low in his 2008 film?",), CITY),
    _p("place", "dubrovnik", "King's Landing",
       "The walled old town of Dubrovnik, Croatia, was the main filming location for King's Landing in the HBO "
       "series Game of Thrones.",
       ("Which Croatian city stood in for King's Landing in 'Game of Thrones'?",), CITY_SHOWN),
    _p("place", "budapest", "Harry Houdini",
       "The escape artist Harry Houdini was born Erik Weisz in Budapest, then in Austria-Hungary, in 1874.",
       ("Where was the escape artist Harry Houdini born?",), CITY),
    _p("place", "valletta", "European Capital of Culture 2018",
       "Valletta, the capital of Malta, was a European Capital of Culture in 2018, together with Leeuwarden in the "
       "Netherlands.",
       ("Which Maltese city was a European Capital of Culture in 2018?",), CITY),
    _p("place", "singapore", "2008 Singapore Grand Prix",
       "The 2008 Singapore Grand Prix at the Marina Bay Street Circuit was the first Formula One night race; "
       "Fernando Alonso won it.",
       ("Which city hosted Formula One's first night race?",), CITY_SHOWN),
    _p("place", "cape town", "Christiaan Barnard",
       "Christiaan Barnard performed the first human-to-human heart transplant on 3 December 1967 at Groote Schuur "
       "Hospital in Cape Town, South Africa.",
       ("In which city was the first human heart transplant performed?",), CITY),
    _p("place", "new orleans", "Louis Armstrong",
       "The jazz trumpeter Louis Armstrong was born in New Orleans, Louisiana, on 4 August 1901; the city's "
       "airport is named after him.",
       ("Which city was the jazz trumpeter Louis Armstrong born in?",), CITY),
    _p("place", "copenhagen", "The Little Mermaid (statue)",
       "The Little Mermaid, Edvard Eriksen's bronze statue of Hans Christian Andersen's character, has sat on a "
       "rock at the Langelinie promenade in Copenhagen since 1913.",
       ("Which city is home to Edvard Eriksen's bronze statue of the Little Mermaid?",), CITY_SHOWN),
    _p("place", "oslo", "Theft of The Scream",
       "On 12 February 1994, the opening day of the Lillehammer Winter Olympics, thieves stole Edvard Munch's The "
       "Scream from the National Gallery in Oslo; it was recovered that May.",
       ("From which city's National Gallery was 'The Scream' stolen in 1994?",), CITY),
    _p("place", "helsinki", "1952 Summer Olympics",
       "Helsinki hosted the 1952 Summer Olympics, where Emil Zátopek won the 5,000 metres, the 10,000 metres and "
       "the marathon.",
       ("In which city did Emil Zátopek win three distance golds at one Olympics?",
        "Which city hosted the 1952 Summer Olympics?"), CITY),
    _p("place", "munich", "Oktoberfest",
       "The first Oktoberfest was held in Munich in October 1810 to celebrate the wedding of Crown Prince Ludwig "
       "of Bavaria and Princess Therese of Saxe-Hildburghausen.",
       ("Which city's beer festival began in 1810 with a royal wedding?",), CITY_SHOWN),
    _p("place", "seville", "Expo '92",
       "Seville, in Andalusia, hosted the Expo '92 world's fair on the Isla de la Cartuja, marking 500 years since "
       "Columbus's first voyage.",
       ("Which Spanish city hosted the Expo '92 world's fair?",), CITY),
    _p("place", "porto", "Prince Henry the Navigator",
       "Prince Henry the Navigator, patron of Portuguese voyages of discovery, was born in Porto in 1394.",
       ("Which city was Prince Henry the Navigator born in?",), CITY),
    _p("place", "bergen", "Edvard Grieg",
       "The composer Edvard Grieg, known for the Peer Gynt suites, was born in Bergen, Norway, in 1843; his home "
       "Troldhaugen is just outside the city.",
       ("In which Norwegian city was Edvard Grieg born?",), CITY),
    _p("place", "reykjavik", "World Chess Championship 1972",
       "The 1972 World Chess Championship, in which Bobby Fischer defeated Boris Spassky, was played in Reykjavik, "
       "Iceland.",
       ("Where did Bobby Fischer defeat Boris Spassky for the 1972 World Chess Championship?",), CITY),
    _p("place", "reykjavik", "Reykjavik Summit",
       "Ronald Reagan and Mikhail Gorbachev met at the Höfði house in Reykjavik in October 1986 for a summit on "
       "nuclear arms.",
       ("In which city did Ronald Reagan and Mikhail Gorbachev hold their 1986 summit?",),
       CITY_SHOWN),
    _p("place", "bilbao", "Guggenheim Museum Bilbao",
       "The Guggenheim Museum Bilbao, a titanium-clad building designed by Frank Gehry, opened in the Basque city "
       "of Bilbao in 1997.",
       ("In which Basque city did Frank Gehry's Guggenheim museum open in 1997?",), CITY),
    _p("place", "manila", "José Rizal",
       "The Filipino national hero José Rizal was executed by a Spanish firing squad in Bagumbayan, Manila, on 30 "
       "December 1896; the site is now Rizal Park.",
       ("In which city was José Rizal executed in 1896?",), CITY_SHOWN),
    # countries
    _p("place", "uruguay", "Maracanazo",
       "In the Maracanazo, the deciding match of the 1950 FIFA World Cup, Uruguay beat the hosts Brazil 2-1 at the "
       "Maracanã Stadium in Rio de Janeiro to win the title.",
       ("Which country won the deciding match of the 1950 World Cup at the Maracanã?",),
       COUNTRY),
    _p("place", "new zealand", "Royals (Lorde song)",
       "The singer Lorde, from New Zealand, won Song of the Year at the 2014 Grammy Awards with 'Royals'.",
       ("Which country is the singer of 'Royals' from?",),
       COUNTRY),
    _p("place", "iceland", "Vigdís Finnbogadóttir",
       "Vigdís Finnbogadóttir, elected President of Iceland in 1980, was the world's first woman democratically "
       "elected president.",
       ("Which country elected Vigdís Finnbogadóttir president in 1980?",), COUNTRY),
    _p("place", "portugal", "UEFA Euro 2016 final",
       "Portugal won UEFA Euro 2016, beating the hosts France 1-0 after extra time in the final with a goal by "
       "Éder.",
       ("Which country won UEFA Euro 2016 with a goal by Éder?",), COUNTRY),
    _p("place", "greece", "UEFA Euro 2004 final",
       "Greece won UEFA Euro 2004, beating the hosts 1-0 in the final with a header by Angelos Charisteas.",
       ("Which country won UEFA Euro 2004?",), COUNTRY),
    _p("place", "denmark", "UEFA Euro 1992",
       "Denmark, called up to Euro 1992 only when Yugoslavia was excluded, won the tournament by beating Germany "
       "2-0 in the final.",
       ("Which country won Euro 1992 after replacing Yugoslavia?",), COUNTRY),
    _p("place", "croatia", "2018 Ballon d'Or",
       "Luka Modrić, the midfielder from Croatia, won the 2018 Ballon d'Or, the first player other than Lionel "
       "Messi or Cristiano Ronaldo to win it since 2007.",
       ("From which country is the midfielder who won the 2018 Ballon d'Or?",), COUNTRY),
    _p("place", "morocco", "2022 FIFA World Cup",
       "At the 2022 FIFA World Cup in Qatar, Morocco became the first African team to reach a World Cup "
       "semi-final.",
       ("Which country became the first African team to reach a World Cup semi-final?",), COUNTRY),
    _p("place", "japan", "2011 FIFA Women's World Cup",
       "Japan won the 2011 FIFA Women's World Cup in Germany, beating the United States on penalties in the "
       "final.",
       ("Which country won the 2011 FIFA Women's World Cup?",),
       COUNTRY),
    _p("place", "norway", "Kon-Tiki expedition",
       "In 1947 the explorer Thor Heyerdahl, from Norway, sailed the balsa-wood raft Kon-Tiki from Peru to the "
       "Tuamotu Islands in Polynesia.",
       ("From which country was the explorer who sailed the Kon-Tiki in 1947?",),
       COUNTRY),
    _p("place", "ireland", "Ireland in the Eurovision Song Contest",
       "Ireland won the Eurovision Song Contest three years in a row, in 1992, 1993 and 1994, and again in 1996.",
       ("Which country won the Eurovision Song Contest three years in a row in the 1990s?",), COUNTRY),
    _p("place", "finland", "Lordi",
       "The monster-masked hard rock band Lordi won the 2006 Eurovision Song Contest for Finland with 'Hard Rock "
       "Hallelujah'.",
       ("Which country won Eurovision in 2006 with 'Hard Rock Hallelujah'?",), COUNTRY),
    # coffee-growing countries, asked mostly through a person or an event
    _p("origin", "ethiopia", "Kaldi",
       "According to legend, coffee was discovered by Kaldi, a goatherd in the highlands of Ethiopia, whose goats "
       "grew lively after eating coffee cherries.",
       ("In which country does the legend of Kaldi and his goats take place?",), ORIGIN),
    _p("origin", "ethiopia", "Abebe Bikila",
       "Abebe Bikila of Ethiopia won the marathon at the 1960 Summer Olympics in Rome running barefoot, and "
       "won it again at the 1964 Games in Tokyo.",
       ("Which country was the barefoot winner of the 1960 Olympic marathon from?",), ORIGIN_FROM),
    _p("origin", "kenya", "Wangari Maathai",
       "Wangari Maathai of Kenya, founder of the Green Belt Movement, won the 2004 Nobel Peace Prize, the first "
       "African woman to receive it.",
       ("From which country was the founder of the Green Belt Movement?",
        "Which country was Wangari Maathai from?"),
       ORIGIN),
    _p("origin", "colombia", "Gabriel García Márquez",
       "Gabriel García Márquez of Colombia, author of One Hundred Years of Solitude, won the 1982 Nobel Prize in "
       "Literature.",
       ("Which country was the author of 'One Hundred Years of Solitude' from?",), ORIGIN_FROM),
    _p("origin", "rwanda", "Parliament of Rwanda",
       "After its 2008 election, the Chamber of Deputies of Rwanda became the first national parliament in the "
       "world where women held a majority of the seats.",
       ("Which country's parliament became the first with a majority of women in 2008?",), ORIGIN),
    _p("origin", "guatemala", "Rigoberta Menchú",
       "Rigoberta Menchú, a K'iche' Maya activist from Guatemala, won the 1992 Nobel Peace Prize for her work for "
       "the rights of indigenous peoples.",
       ("From which country is the activist who won the 1992 Nobel Peace Prize?",), ORIGIN),
    _p("origin", "costa rica", "Abolition of the army in Costa Rica",
       "José Figueres Ferrer abolished the army of Costa Rica in 1948 after the civil war, and the 1949 "
       "constitution made the abolition permanent.",
       ("Which Central American country abolished its army in 1948?",), ORIGIN_FROM),
    _p("origin", "jamaica", "Jamaica national bobsleigh team",
       "The national bobsleigh team of Jamaica made its debut at the 1988 Winter Olympics in Calgary, a story "
       "loosely retold in the 1993 film Cool Runnings.",
       ("Which country's bobsleigh team inspired the film 'Cool Runnings'?",), ORIGIN),
    _p("origin", "yemen", "Tawakkol Karman",
       "The journalist Tawakkol Karman of Yemen shared the 2011 Nobel Peace Prize, the first Arab woman to win "
       "a Nobel Prize.",
       ("Which country is the journalist Tawakkol Karman from?",), ORIGIN),
    _p("origin", "indonesia", "Susi Susanti",
       "Susi Susanti won the women's singles badminton at the 1992 Barcelona Olympics; with Alan "
       "Budikusuma's men's title, they were the first Olympic gold medals for Indonesia.",
       ("From which country is the badminton champion Susi Susanti?",),
       ORIGIN_FROM),
    _p("origin", "vietnam", "Hoàng Xuân Vinh",
       "The shooter Hoàng Xuân Vinh won the men's 10 metre air pistol at the 2016 Rio Olympics, the first Olympic "
       "gold medal for Vietnam.",
       ("For which country did Hoàng Xuân Vinh win a first-ever Olympic gold in 2016?",), ORIGIN),
    _p("origin", "peru", "Mario Vargas Llosa",
       "The novelist Mario Vargas Llosa of Peru, author of The Time of the Hero and Conversation in the Cathedral, "
       "won the 2010 Nobel Prize in Literature.",
       ("From which country is the novelist who won the 2010 Nobel Prize in Literature?",), ORIGIN),
    _p("origin", "honduras", "Football War",
       "The Football War, a four-day war in July 1969 between Honduras and El Salvador, broke out amid tensions "
       "heightened by their World Cup qualifying matches.",
       ("Which country fought El Salvador in the four-day 'Football War' of 1969?",), ORIGIN_FROM),
    _p("origin", "brazil", "Alberto Santos-Dumont",
       "Alberto Santos-Dumont, an aviation pioneer from Brazil, flew his 14-bis aeroplane in Paris in 1906.",
       ("From which country was the aviator who flew the 14-bis in 1906?",), ORIGIN),
    _p("origin", "panama", "Mariano Rivera",
       "Mariano Rivera, the New York Yankees closer born in Panama, became in 2019 the first player elected "
       "unanimously to the Baseball Hall of Fame.",
       ("From which country is the first unanimous Baseball Hall of Fame inductee?",), ORIGIN),
    _p("origin", "mexico", "Octavio Paz",
       "The poet Octavio Paz of Mexico, author of The Labyrinth of Solitude, won the 1990 Nobel Prize in "
       "Literature.",
       ("Which country was the poet Octavio Paz from?",),
       ORIGIN_FROM),
    # years a vintage birthday T-shirt carries
    _p("year", "1974", "Rubik's Cube",
       "Ernő Rubik, a Hungarian professor of architecture, made the first working prototype of his cube in 1974.",
       ("When did Ernő Rubik make the first prototype of his cube?",), YEAR),
    _p("year", "1953", "1953 British Mount Everest expedition",
       "Edmund Hillary and Tenzing Norgay, of the British expedition led by John Hunt, made the first ascent of "
       "Mount Everest on 29 May 1953.",
       ("In what year was Mount Everest first climbed?",), YEAR_MARK),
    _p("year", "1955", "Disneyland",
       "Disneyland, the first Disney theme park, opened in Anaheim, California, on 17 July 1955.",
       ("When did the original Disneyland open in California?",), YEAR),
    _p("year", "1957", "Sputnik 1",
       "The Soviet Union launched Sputnik 1, the first artificial Earth satellite, on 4 October 1957.",
       ("In what year was Sputnik 1 launched?",), YEAR_MARK),
    _p("year", "1960", "Theodore Maiman",
       "Theodore Maiman operated the first working laser, a ruby laser, at Hughes Research Laboratories in "
       "California on 16 May 1960.",
       ("When did Theodore Maiman demonstrate the first working laser?",),
       YEAR),
    _p("year", "1962", "Dr. No (film)",
       "Dr. No, the first James Bond film, starring Sean Connery, premiered in London in October 1962.",
       ("What year did the first James Bond film, 'Dr. No', premiere?",), YEAR_MARK),
    _p("year", "1966", "Pickles (dog)",
       "In March 1966, months before the World Cup in England, the Jules Rimet Trophy was stolen in London; a dog "
       "named Pickles found it a week later wrapped in newspaper under a hedge.",
       ("In what year did the dog Pickles find the stolen Jules Rimet Trophy?",), YEAR),
    _p("year", "1967", "Barclays Enfield cash machine",
       "The world's first cash machine was opened by Barclays at its Enfield branch in north London on 27 June "
       "1967; the actor Reg Varney made the first withdrawal.",
       ("In what year did Barclays open the world's first cash machine?",
        "When did Reg Varney make the first withdrawal from a cash machine?"), YEAR_MARK),
    _p("year", "1969", "Concorde",
       "The Anglo-French supersonic airliner Concorde made its maiden flight from Toulouse on 2 March 1969.",
       ("In what year did Concorde make its first flight?",), YEAR),
    _p("year", "1971", "Intel 4004",
       "Intel released the 4004, the first commercially produced microprocessor, in November 1971.",
       ("In which year did Intel release the 4004 microprocessor?",), YEAR_MARK),
    _p("year", "1977", "Voyager 1",
       "NASA launched the space probe Voyager 1 on 5 September 1977; it later became the first spacecraft to "
       "reach interstellar space.",
       ("In what year was the space probe Voyager 1 launched?",), YEAR),
    _p("year", "1979", "Walkman",
       "Sony launched the Walkman portable cassette player, the TPS-L2, in Japan on 1 July 1979.",
       ("When did Sony launch its first Walkman cassette player?",), YEAR_MARK),
    _p("year", "1981", "STS-1",
       "STS-1, the first Space Shuttle mission, launched Columbia with John Young and Robert Crippen aboard on 12 "
       "April 1981.",
       ("In what year did the first Space Shuttle mission launch?",), YEAR),
    _p("year", "1982", "Sony CDP-101",
       "The Sony CDP-101, the first commercial compact disc player, went on sale in Japan in October 1982.",
       ("In which year did the first commercial CD player go on sale?",), YEAR_MARK),
    _p("year", "1985", "Live Aid",
       "Live Aid, the benefit concert organised by Bob Geldof and Midge Ure, was held on 13 July 1985 at Wembley "
       "Stadium in London and JFK Stadium in Philadelphia.",
       ("In what year was the Live Aid concert held?",), YEAR),
    _p("year", "1989", "Information Management: A Proposal",
       "In March 1989 Tim Berners-Lee submitted 'Information Management: A Proposal' at CERN, the document that led "
       "to the World Wide Web.",
       ("In what year did Tim Berners-Lee propose the World Wide Web at CERN?",),
       YEAR_MARK),
    _p("year", "1990", "Hubble Space Telescope",
       "The Hubble Space Telescope was launched aboard the Space Shuttle Discovery on 24 April 1990.",
       ("When was the Hubble Space Telescope launched into orbit?",), YEAR),
    _p("year", "1994", "Channel Tunnel",
       "The Channel Tunnel between Folkestone and Coquelles was officially opened by Queen Elizabeth II and "
       "President François Mitterrand on 6 May 1994.",
       ("In what year did the Channel Tunnel officially open?",),
       YEAR_MARK),
    _p("year", "1997", "Deep Blue versus Garry Kasparov",
       "In May 1997 IBM's computer Deep Blue beat the world chess champion Garry Kasparov in a six-game rematch in "
       "New York.",
       ("In what year did Deep Blue defeat Garry Kasparov in a match?",), YEAR),
    _p("year", "2001", "Wikipedia",
       "Wikipedia was launched by Jimmy Wales and Larry Sanger on 15 January 2001.",
       ("In what year did Jimmy Wales and Larry Sanger launch Wikipedia?",), YEAR_MARK),
    # first names a name necklace spells out
    _p("name", "rowan", "Rowan Atkinson",
       "Rowan Atkinson, the English actor who created and played Mr. Bean, studied electrical engineering at "
       "Newcastle University and Oxford.",
       ("What is the first name of the actor who played Mr. Bean?",), NAME),
    _p("name", "ada", "Ada Lovelace",
       "Ada Lovelace, Lord Byron's daughter, published notes on Charles Babbage's Analytical Engine in 1843, "
       "including an algorithm for computing Bernoulli numbers, often called the first computer program.",
       ("What is the first name of the mathematician who wrote the 1843 notes on Babbage's Analytical Engine?",
        "What was the first name of Lord Byron's only legitimate child?"), NAME),
    _p("name", "valentina", "Valentina Tereshkova",
       "The Soviet cosmonaut Valentina Tereshkova became the first woman in space when she flew Vostok 6 in June 1963.",
       ("What is the first name of the cosmonaut who became the first woman in space?",),
       NAME_SPELT),
    _p("name", "sally", "Sally Ride",
       "Sally Ride became the first American woman in space in June 1983, aboard the Space Shuttle Challenger on "
       "mission STS-7.",
       ("Who was the first American woman in space?",),
       NAME),
    _p("name", "rosalind", "Rosalind Franklin",
       "Rosalind Franklin's X-ray diffraction image of DNA, Photo 51, was taken at King's College London in 1952.",
       ("What is the first name of the scientist behind the X-ray image 'Photo 51'?",), NAME_SPELT),
    _p("name", "katherine", "Katherine Johnson",
       "Katherine Johnson, the NASA mathematician who calculated trajectories for early crewed spaceflights, was "
       "awarded the Presidential Medal of Freedom in 2015 and portrayed in the film Hidden Figures.",
       ("What was the first name of the NASA mathematician awarded the Presidential Medal of Freedom in 2015?",), NAME),
    _p("name", "nadia", "Nadia Comăneci",
       "The Romanian gymnast Nadia Comăneci scored the first perfect 10 in Olympic gymnastics at the 1976 Summer "
       "Olympics in Montreal.",
       ("Which gymnast scored the first perfect 10 at the Olympics?",), NAME_SPELT),
    _p("name", "simone", "Simone de Beauvoir",
       "Simone de Beauvoir, the French philosopher, published The Second Sex in 1949.",
       ("What is the first name of the author of 'The Second Sex'?",), NAME),
    _p("name", "frida", "Frida Kahlo",
       "The painter Frida Kahlo was born and died in La Casa Azul, the Blue House in Coyoacán, Mexico City, which "
       "is now a museum of her work.",
       ("Which painter was born in the Blue House in Coyoacán?",), NAME),
    _p("name", "harper", "Harper Lee",
       "Harper Lee won the 1961 Pulitzer Prize for Fiction for her novel To Kill a Mockingbird.",
       ("What is the first name of the author of 'To Kill a Mockingbird'?",), NAME_SPELT),
    _p("name", "greta", "Greta Thunberg",
       "Greta Thunberg began her school strike for the climate outside the Swedish parliament in August 2018 and "
       "was named Time Person of the Year in 2019.",
       ("Which Swedish activist began a school strike for the climate in 2018?",), NAME),
    _p("name", "malala", "Malala Yousafzai",
       "Malala Yousafzai, the Pakistani education activist, shared the 2014 Nobel Peace Prize at 17, the youngest "
       "Nobel laureate.",
       ("What is the first name of the youngest Nobel Peace Prize laureate?",),
       NAME),
    _p("name", "emma", "Emma Raducanu",
       "Emma Raducanu won the 2021 US Open as a qualifier, the first qualifier in the Open Era to win a Grand Slam "
       "singles title.",
       ("Who won the 2021 US Open as a qualifier?",),
       NAME_SPELT),
    _p("name", "naomi", "Naomi Osaka",
       "The tennis player Naomi Osaka lit the Olympic cauldron at the opening ceremony of the Tokyo 2020 Olympics, "
       "held in July 2021.",
       ("Which tennis player lit the Olympic cauldron in Tokyo in 2021?",), NAME),
    _p("name", "clara", "Clara Barton",
       "Clara Barton, a nurse in the American Civil War, founded the American Red Cross in 1881.",
       ("Who founded the American Red Cross in 1881?",), NAME),
    _p("name", "beatrix", "Beatrix Potter",
       "Beatrix Potter wrote and illustrated The Tale of Peter Rabbit, published by Frederick Warne in 1902.",
       ("Who wrote and illustrated 'The Tale of Peter Rabbit'?",),
       NAME_SPELT),
    _p("name", "agatha", "Agatha Christie",
       "Agatha Christie's first novel, The Mysterious Affair at Styles (1920), introduced the detective Hercule "
       "Poirot.",
       ("What is the first name of the novelist who created Hercule Poirot?",), NAME),
    _p("name", "jane", "Jane Goodall",
       "Jane Goodall began studying wild chimpanzees at Gombe Stream in Tanzania in 1960.",
       ("Which primatologist began studying chimpanzees at Gombe Stream in 1960?",),
       NAME),
    _p("name", "sofia", "Sofia Coppola",
       "Sofia Coppola directed Lost in Translation (2003), starring Bill Murray and Scarlett Johansson, and won the "
       "Academy Award for Best Original Screenplay for it.",
       ("Who directed the 2003 film 'Lost in Translation'?",), NAME_SPELT),
    _p("name", "charlotte", "Charlotte Brontë",
       "Charlotte Brontë published Jane Eyre in 1847 under the pseudonym Currer Bell.",
       ("What is the first name of the novelist who published under the pseudonym Currer Bell?",), NAME),
    _p("name", "lucy", "Lucy (Australopithecus)",
       "Lucy is the name given to the Australopithecus afarensis skeleton that Donald Johanson's team found at "
       "Hadar, Ethiopia, in 1974, after the Beatles song 'Lucy in the Sky with Diamonds'.",
       ("What name was given to the Australopithecus skeleton found at Hadar in 1974?",), NAME_SPELT),
    _p("name", "oscar", "Oscar Niemeyer",
       "The Brazilian architect Oscar Niemeyer, who designed the main civic buildings of Brasília, won the "
       "Pritzker Prize in 1988.",
       ("Which Brazilian architect designed the civic buildings of Brasília?",), NAME),
    _p("name", "felix", "Felix Baumgartner",
       "Felix Baumgartner, the Austrian skydiver, jumped from a helium balloon in the stratosphere on 14 October "
       "2012 in the Red Bull Stratos project.",
       ("What is the first name of the Austrian skydiver who jumped from the stratosphere in 2012?",), NAME),
    _p("name", "maya", "Maya Lin",
       "Maya Lin designed the Vietnam Veterans Memorial in Washington, D.C., winning the design competition in "
       "1981 as a Yale undergraduate.",
       ("Which Yale student designed the Vietnam Veterans Memorial?",), NAME_SPELT),
    _p("name", "astrid", "Astrid Lindgren",
       "The Swedish author Astrid Lindgren created Pippi Longstocking, whose first book was published in 1945.",
       ("What is the first name of the Swedish author who created Pippi Longstocking?",
        "What was the first name of Pippi Longstocking's author?"), NAME),
    _p("name", "ella", "Ella Fitzgerald",
       "Ella Fitzgerald, the 'First Lady of Song', won two awards at the first Grammy Awards in 1959.",
       ("What is the first name of the jazz singer called the 'First Lady of Song'?",), NAME),
)

PLACES = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "place"}))
ORIGINS = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "origin"}))
YEARS = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "year"}))
NAMES = tuple(sorted({f.value for f in PLACE_FACTS if f.key == "name"}))


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
