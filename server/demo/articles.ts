/**
 * The demo articles of a new site: fictional towns, companies and people, written for this project.
 * Listed newest first; the seed spreads them over the last two months in this order.
 */

export interface DemoComment {
  name: string;
  email: string;
  text: string;
  /** Minutes after the article was published. */
  minutesAfter: number;
  replies?: Omit<DemoComment, "replies">[];
}

export interface DemoArticle {
  category: "news" | "entertainment" | "sport" | "worldnews" | "technology" | "schools";
  title: string;
  excerpt: string;
  /** Omitted: the site's default byline. */
  author?: string;
  /** Paragraphs; a paragraph may itself hold single line breaks (a list, a timetable). */
  paragraphs: string[];
  /** Defaults to true: a generated cover picture. */
  image?: boolean;
  /** Attach the demo video. */
  video?: boolean;
  comments?: DemoComment[];
}

export const DEMO_ARTICLES: DemoArticle[] = [
  {
    category: "news",
    title: "Marrowby council approves late-night bus pilot on three routes",
    excerpt:
      "Buses on the 4, 11 and 27 routes will run until 2 a.m. on Fridays and Saturdays for six months, starting next month.",
    author: "Priya Lindqvist",
    paragraphs: [
      "Marrowby town council voted nine to two on Tuesday evening to fund a six-month trial of late-night buses on three of the town's busiest routes, answering a petition signed by more than 3,100 residents last spring.",
      "From the first Friday of next month, the 4 (Station to Hollins Park), the 11 (Market Square to Eastgate) and the 27 (Riverside to the hospital) will run every 30 minutes until 2 a.m. on Friday and Saturday nights. Fares will stay at the daytime rate.",
      "\"Hospital staff, bar workers and cinema crews have been walking home along unlit roads for years,\" said council member Martha Greaves, who chairs the transport committee. \"This is a modest step, but it is one people asked us for in very large numbers.\"",
      "The trial is expected to cost around $210,000, split between the council's transport reserve and a grant from the regional mobility fund. Operator Brightwell Transit said it had already recruited eleven additional drivers.",
      "The two council members who voted against the plan said they supported the idea but wanted passenger numbers from a shorter trial before committing to six months. Ridership figures will be published monthly on the council website.",
      "Residents can comment on the timetable at three drop-in sessions at the Corn Exchange before the service begins.",
    ],
    comments: [
      {
        name: "Rosa Tennant",
        email: "rosa.tennant@example.com",
        text: "Finally. I finish at the hospital at half midnight and the walk up Eastgate Hill is no fun in winter.",
        minutesAfter: 35,
        replies: [
          {
            name: "Oliver Marsh",
            email: "oliver.marsh@example.com",
            text: "Same here. Hoping they keep it past the six months if the numbers are decent.",
            minutesAfter: 82,
          },
        ],
      },
      {
        name: "Nadia Brook",
        email: "nadia.brook@example.com",
        text: "Would be great to see the 9 added to the trial too, it covers half of the new estates.",
        minutesAfter: 121,
      },
    ],
  },
  {
    category: "technology",
    title: "Lumora Systems opens repair-first laptop program in Alder Falls",
    excerpt:
      "The hardware maker will fix any of its laptops bought in the last eight years for the cost of parts, and train local technicians to do it.",
    author: "Tomasz Abernathy",
    paragraphs: [
      "Lumora Systems, the Alder Falls laptop maker best known for its Ridgeline business notebooks, has opened what it calls a repair-first service center in the old post office building on Canal Street.",
      "Customers can bring in any Lumora laptop sold in the last eight years. Batteries, keyboards, screens and hinges will be replaced for the cost of the parts, with labor free of charge for the first year of the program.",
      "\"Most of the laptops we see thrown away have one broken part and seven good years left in them,\" said Elena Voss, Lumora's head of product sustainability. \"We would rather sell fewer machines and keep more of them working.\"",
      "The center will also run a twelve-week paid training course for technicians. The first group of fourteen trainees, most of them recruited through Alder Falls Community College, started on Monday.",
      "Repair advocates welcomed the move but said the real test would be whether Lumora publishes its repair manuals and sells parts to independent shops. The company said manuals for its three most recent models would be online by the end of the quarter.",
    ],
  },
  {
    category: "sport",
    title: "Kestrel Bay Rovers clinch promotion with stoppage-time header",
    excerpt:
      "Center-back Femi Adeyemo's header in the 94th minute sealed a 2-1 win over Dunmore Athletic and a first promotion in 19 years.",
    author: "Callum Ferreira",
    paragraphs: [
      "Kestrel Bay Rovers will play in the second division next season after center-back Femi Adeyemo rose highest to meet a corner in the fourth minute of stoppage time, sending 6,800 supporters at Saltmarsh Park into raptures.",
      "Dunmore Athletic had led for most of the afternoon through a first-half penalty from Arlo Whitcombe, and for long spells the visitors' compact defense looked capable of spoiling the party.",
      "Rovers drew level in the 71st minute when substitute Kai Lindholm cut inside from the left and curled a shot into the far corner. From then on it was one-way traffic, with Dunmore goalkeeper Sean Maddox making three fine saves before Adeyemo's decisive header.",
      "\"I've been at this club since I was nine,\" said Adeyemo, still in his uniform an hour after the final whistle. \"My dad used to bring me here when we were losing every week. This one is for everyone who kept coming.\"",
      "Manager Ruth Calloway, who took over in a relegation fight two seasons ago, praised the squad's resilience. \"We conceded first in eleven games this season and came back in eight of them. That tells you everything about this group.\"",
      "The club will hold an open-top bus parade along the seafront on Sunday afternoon, finishing at the harbor steps at around 4 p.m.",
    ],
    comments: [
      {
        name: "Gareth Pell",
        email: "gareth.pell@example.com",
        text: "Nineteen years of waiting. I was in the East Stand and I have never heard noise like it.",
        minutesAfter: 48,
        replies: [
          {
            name: "Lucy Fenwick",
            email: "lucy.fenwick@example.com",
            text: "We were right behind the goal when the header went in. My voice still hasn't come back.",
            minutesAfter: 130,
          },
          {
            name: "Marco Bellini",
            email: "marco.bellini@example.com",
            text: "Best afternoon at Saltmarsh Park since the cup run. See you at the parade!",
            minutesAfter: 205,
          },
        ],
      },
      {
        name: "Hannah Osei",
        email: "hannah.osei@example.com",
        text: "Credit to Ruth Calloway. Two years ago we were bottom in February.",
        minutesAfter: 260,
      },
      {
        name: "Declan Fry",
        email: "declan.fry@example.com",
        text: "As a Dunmore fan: fair play, you deserved it over the season. Good luck next year.",
        minutesAfter: 410,
      },
    ],
  },
  {
    category: "entertainment",
    title: "Wrenfield teenager's sunrise time-lapse wins regional film prize",
    excerpt:
      "Seventeen-year-old Maya Hollis spent 40 mornings on Harrow Ridge to make a six-second film that beat 300 entries. Watch it below.",
    author: "Sunniva Halloran",
    video: true,
    paragraphs: [
      "A six-second film of the sun rising over the Harrow Ridge hills has won the short-form prize at this year's Northvale Film Festival, beating more than 300 entries from professional and amateur filmmakers.",
      "Its maker, 17-year-old Maya Hollis from Wrenfield, climbed the ridge before dawn on 40 separate mornings over the autumn with a borrowed camera and a home-made timer, waiting for a clear sky and still air.",
      "\"Most mornings were cloudy, or windy, or both,\" she said. \"On the last day everything lined up for about twenty minutes. I knew it was the one before I got home.\"",
      "The jury described the film as \"a complete piece of work in the time it takes to read this sentence\" and praised its patience and restraint. The prize includes $1,500 and a week-long placement with the festival's editing team.",
      "Hollis, who is studying for exams at Wrenfield High School, says she wants to make a longer film about the ridge through all four seasons. The festival will screen the winning shorts in the Market Hall every evening this week.",
    ],
    comments: [
      {
        name: "Evie Carrow",
        email: "evie.carrow@example.com",
        text: "Forty mornings! That is real dedication. It looks beautiful.",
        minutesAfter: 95,
        replies: [
          {
            name: "Sam Okoro",
            email: "sam.okoro@example.com",
            text: "I walk my dog up there and I've seen her setting up in the dark. Great to see it paid off.",
            minutesAfter: 240,
          },
        ],
      },
      {
        name: "Philippa Dunn",
        email: "philippa.dunn@example.com",
        text: "Would love to see the four-seasons version when it's done.",
        minutesAfter: 600,
      },
    ],
  },
  {
    category: "worldnews",
    title: "Calvessa and Northmark sign ferry agreement across the Tessaly Strait",
    excerpt:
      "A daily passenger and freight service between Port Veyra and Halvik will resume in spring after a twelve-year gap.",
    author: "Aisha Rahmanova",
    paragraphs: [
      "The governments of Calvessa and Northmark have signed an agreement to restore a daily ferry service across the Tessaly Strait, reconnecting the port cities of Port Veyra and Halvik for the first time in twelve years.",
      "The crossing, which takes about five hours, was suspended after the previous operator went out of business. Since then, travellers and truckers have had to make a two-day detour through the Orvane Valley land route.",
      "Under the agreement, both countries will share the cost of upgrading the two terminals, and a joint tender for an operator will open next month. Officials expect the first sailing in early spring, with two vessels carrying up to 600 passengers and 120 trucks each.",
      "\"Families on both sides of the strait have waited a long time for this,\" said Northmark's transport minister, Ilse Varga, at the signing ceremony in Halvik. Her Calvessan counterpart, Tomas Reyne, said the route would \"shorten the distance between our markets by a day and a half.\"",
      "Business groups in both countries welcomed the deal. Environmental organizations said they would watch the tender closely and urged both governments to require low-emission vessels.",
    ],
  },
  {
    category: "schools",
    title: "Wrenfield High robotics team heads to national finals",
    excerpt:
      "The six-student team's sorting robot, built largely from recycled parts, took first place at the regional championship.",
    author: "Jonah Pemberton",
    paragraphs: [
      "A team of six students from Wrenfield High School will represent the region at the national youth robotics finals next month, after their sorting robot won the regional championship in Castell on Saturday.",
      "The challenge asked teams to build a machine that could pick colored blocks from a moving conveyor and sort them into bins within three minutes. Wrenfield's robot, nicknamed Magpie, sorted 58 blocks without a single error, eleven more than the runner-up.",
      "Much of Magpie is built from recycled parts: its frame comes from an old school printer and its gripper was cut from a broken chair. \"We had a small budget, so we got creative,\" said team captain Zara Whitfield, 16.",
      "Physics teacher Daniel Okonjo, who runs the after-school robotics club, said the students had met three evenings a week since September. \"They rebuilt the gripper four times. The winning version was designed the Thursday before the competition.\"",
      "The team is now raising money for travel and lodging for the finals. Parents and local businesses have already pledged more than half of the $2,400 needed.",
    ],
    comments: [
      {
        name: "Grace Whitfield",
        email: "grace.whitfield@example.com",
        text: "So proud of this team. The kitchen table has been covered in wires since September!",
        minutesAfter: 180,
        replies: [
          {
            name: "Ravi Menon",
            email: "ravi.menon@example.com",
            text: "Our print shop would be happy to help with the travel fund. How do we get in touch?",
            minutesAfter: 420,
          },
        ],
      },
    ],
  },
  {
    category: "news",
    title: "Harbor Street bridge reopens after eleven months of repairs",
    excerpt:
      "The 140-year-old crossing is open to pedestrians, cyclists and buses again, with cars allowed back from next week.",
    paragraphs: [
      "The Harbor Street bridge in Kestrel Bay reopened to pedestrians, cyclists and buses on Monday morning, eleven months after engineers closed it when a routine inspection found corrosion in two of its iron girders.",
      "Contractors replaced both girders, repaired the stone piers and laid a new deck surface. The footpaths have been widened by half a meter on each side, and a protected cycle lane now runs along the seaward edge.",
      "Cars will be allowed back across the bridge from next Monday, subject to a 20 mph limit. Trucks over eight tons will remain banned to protect the structure.",
      "The closure had added up to 25 minutes to journeys between the harbor and the town center. Traders on Quay Parade said footfall had fallen by as much as a third while the bridge was shut.",
      "\"It's like having the town joined back together,\" said Brenda Howell, who runs a café at the harbor end of the bridge. \"We had people lining up at half past seven this morning.\"",
    ],
  },
  {
    category: "technology",
    title: "Quillon Labs' battery recycling plant passes first safety inspection",
    excerpt:
      "The plant near Halden will recover lithium, nickel and cobalt from up to 8,000 tons of used batteries a year.",
    author: "Ines Kowalczyk",
    paragraphs: [
      "A battery recycling plant built by Quillon Labs on the former Halden brickworks site has passed its first inspection by the regional safety regulator, clearing the way for it to begin processing batteries next month.",
      "The plant is designed to handle up to 8,000 tons of used batteries a year, from phones and power tools to electric car packs. Quillon says its water-based process recovers more than 90 percent of the lithium, nickel and cobalt in each cell.",
      "Inspectors examined the plant's fire suppression systems, storage bays and emergency procedures over three days. Their report asks for one change: a second access road for emergency vehicles, which Quillon says will be finished within six weeks.",
      "The project has created 85 permanent jobs, about half of them filled by former workers from the brickworks and nearby warehouses. Quillon chief executive Ravi Anand said the company had chosen Halden for its rail link and its skilled workforce.",
      "Some residents of Halden Green, the village closest to the site, have asked for regular public updates on air and water monitoring. The company has agreed to publish monthly results online and to hold open days twice a year.",
    ],
  },
  {
    category: "entertainment",
    title: "Empty shopfronts become a winter art trail on Fenwick Lane",
    excerpt:
      "Twelve vacant shops in Marrowby's old quarter are showing work by local artists until the end of February, lit every evening until ten.",
    author: "Sunniva Halloran",
    paragraphs: [
      "Twelve empty shops on Fenwick Lane and the streets around it have been turned into lit-up galleries for the winter, in a project run by the Marrowby Arts Collective with the permission of the buildings' owners.",
      "Each window shows the work of a different local artist, from large paper lanterns and stained-glass panels to a miniature model of the old quarter built entirely from reclaimed wood. The windows are lit from 4 p.m. until 10 p.m. every evening.",
      "\"We kept walking past these dark windows and thinking what a waste it was,\" said collective member Ottilie Rask. \"Now people are coming into town on a Tuesday night just to see them.\"",
      "A free printed map is available from the library and the Fenwick Lane bakery. On Thursday evenings, the artists themselves lead guided walks starting from the market cross at 6:30 p.m.",
      "Two of the shops have already been let to new tenants since the trail opened, and the collective says it hopes to repeat the project each winter.",
    ],
  },
  {
    category: "sport",
    title: "Alder Falls half marathon draws a record 4,200 runners",
    excerpt:
      "Local runner Tessa Marlow won the women's race in a course record, while Joel Haskins took the men's title in a sprint finish.",
    author: "Callum Ferreira",
    paragraphs: [
      "A record 4,200 runners took part in the Alder Falls half marathon on Sunday, almost a thousand more than last year, on a crisp, windless morning that organizers described as perfect racing weather.",
      "Tessa Marlow of Alder Falls Harriers won the women's race in 1 hour 14 minutes and 52 seconds, taking 40 seconds off the course record she set two years ago. \"I knew the conditions were right, so I went for it from the start,\" she said.",
      "The men's race came down to a sprint along the riverside finishing straight, where Joel Haskins of Castell Athletic edged ahead of clubmate Ben Arkwright in the final hundred meters to win in 1:05:31.",
      "More than 600 volunteers staffed drinks stations and marshalling points along the route, which loops through the old mill district and along the river before finishing in Victoria Park.",
      "Organizers said the race raised over $180,000 for the Alder Falls children's hospice. Entries for next year's event open on the first of the month.",
    ],
  },
  {
    category: "worldnews",
    title: "Drought eases in the Orvane Valley as autumn rains return",
    excerpt:
      "Reservoirs across the valley are filling again after the driest summer in 60 years, but farmers warn the recovery will take seasons, not weeks.",
    author: "Aisha Rahmanova",
    paragraphs: [
      "Three weeks of steady autumn rain have begun to refill reservoirs across the Orvane Valley, ending water restrictions in most towns after the driest summer the region has recorded in 60 years.",
      "The valley's largest reservoir, at Lake Sorrel, is back to 58 percent of capacity, up from a low of 21 percent in late August. Lawn-watering bans have been lifted in eleven of the valley's fourteen districts.",
      "Farmers say the rain came too late for this year's harvest. Grain yields in the lower valley fell by around a third, and many herders sold part of their livestock over the summer because they could not afford to buy feed.",
      "\"The fields look green again, but the soil is still dry a hand's width down,\" said Mirela Dascu, who farms 200 hectares near the town of Vessen. \"It will take a wet winter before we can plan with any confidence.\"",
      "The regional water authority has announced a review of the valley's long-term supply, including new storage ponds and repairs to leaking irrigation canals. Its first findings are due next summer.",
    ],
  },
  {
    category: "schools",
    title: "Free breakfast club expands to every Halden County elementary school",
    excerpt:
      "From January, all 46 elementary schools in the county will offer a free breakfast before lessons, funded by the county and a local food charity.",
    paragraphs: [
      "Every elementary school in Halden County will offer a free breakfast club from January, after the county council and the food charity Full Table agreed to extend a pilot that ran in twelve schools last year.",
      "The clubs open at 8 a.m. and serve cereal, toast, fruit and yoghurt. Any student can attend without registering in advance, which organizers say avoids singling out children from families who are struggling.",
      "Principals in the pilot schools reported fewer late arrivals and calmer first lessons. At Millbrook Elementary, attendance in the first hour of the day rose by six percent over the year.",
      "\"Children can't learn on an empty stomach. It really is that simple,\" said Full Table's director, Colette Armitage. The charity will supply food through its partnerships with local bakeries and supermarkets.",
      "The expansion will cost the county around $390,000 a year. Schools are now recruiting volunteers to help run the clubs, and parents interested in helping can contact their school office.",
    ],
    comments: [
      {
        name: "Imogen Hart",
        email: "imogen.hart@example.com",
        text: "Our school was in the pilot and it made a real difference. Mornings are so much calmer.",
        minutesAfter: 300,
      },
      {
        name: "Peter Lowry",
        email: "peter.lowry@example.com",
        text: "Happy to volunteer at Millbrook one morning a week. Good to see the county backing this.",
        minutesAfter: 1440,
      },
    ],
  },
  {
    category: "news",
    title: "Volunteers plant 3,000 trees along the Marrow River floodplain",
    excerpt:
      "The new woodland is meant to slow floodwater upstream of Marrowby, which flooded twice in the last five winters.",
    author: "Priya Lindqvist",
    paragraphs: [
      "More than 250 volunteers spent the weekend planting 3,000 native trees on farmland along the Marrow River, in a scheme designed to slow floodwater before it reaches the town center.",
      "Alder, willow, oak and hawthorn saplings were planted across eight hectares of wet pasture donated by two local farming families. Hedges and small earth banks will also be built to hold water on the land during heavy rain.",
      "Marrowby's lower streets flooded twice in the last five winters, damaging more than 200 homes and businesses. Hydrologists from the regional environment agency estimate that the new woodland could lower peak river levels in town by up to six inches once it matures.",
      "\"Six inches doesn't sound like much, but it's often the difference between water at the doorstep and water in the living room,\" said project coordinator Fenella Joyce.",
      "The planting was the first stage of a three-year plan. Volunteers are invited back in March, when a further 5,000 trees will go in on the opposite bank.",
    ],
  },
  {
    category: "technology",
    title: "Open-source weather stations give farmers street-level forecasts",
    excerpt:
      "A network of 120 home-built weather stations across the Halden plain now feeds a free forecast that updates every ten minutes.",
    author: "Tomasz Abernathy",
    paragraphs: [
      "A network of 120 low-cost weather stations, built and maintained by farmers, schools and hobbyists across the Halden plain, now feeds a free local forecast that its makers say beats national services for frost and rain warnings.",
      "Each station costs about $90 in parts and measures temperature, humidity, wind, rainfall and soil moisture. The designs and software are published under an open licence, and a volunteer group runs monthly build workshops at the Halden makerspace.",
      "Readings are sent every ten minutes to a public dashboard. Farmers can sign up for text alerts when frost or heavy rain is likely in their own fields rather than at the nearest airport, often 30 kilometers away.",
      "\"Last spring, the network warned us about a frost pocket in the low orchard six hours before it hit,\" said fruit grower Anders Kettle. \"We lit the burners in time and saved most of the blossom.\"",
      "The group now hopes to reach 300 stations by next year and is working with the Halden Agricultural College to compare its forecasts with official data over a full growing season.",
    ],
  },
  {
    category: "sport",
    title: "Wrenfield Wildcats goalkeeper signs first professional contract",
    excerpt:
      "Nineteen-year-old Amara Quist, who came through the club's girls' academy, has signed a two-year deal with top-flight Castell City.",
    author: "Marcus Delacroix-Webb",
    paragraphs: [
      "Wrenfield Wildcats goalkeeper Amara Quist has signed her first professional contract, a two-year deal with top-flight Castell City, becoming the first player from the club's girls' academy to turn professional.",
      "Quist, 19, joined the Wildcats at the age of eleven and made her first-team debut at sixteen. This season she kept fourteen clean sheets in 22 league matches and saved three penalties in the county cup.",
      "\"She is the most composed young goalkeeper I have worked with,\" said Wildcats coach Leonie Brandt. \"She reads the game two passes ahead, and she is brave. Castell are getting a very good player and a very good person.\"",
      "Quist said leaving was bittersweet. \"This club gave me everything: cleats when my family couldn't afford it, rides to away games, people who believed in me. I hope girls watching from the touchline see that this path is real.\"",
      "The Wildcats will receive a development fee, which the club says will go towards floodlights for its training pitch.",
    ],
  },
  {
    category: "entertainment",
    title: "The Lantern Theatre opens its centenary season with a sold-out comedy",
    excerpt:
      "Kestrel Bay's oldest theatre celebrates 100 years with a revival of the farce that first opened its doors in the 1920s.",
    paragraphs: [
      "The Lantern Theatre in Kestrel Bay opened its centenary season on Friday with a sold-out revival of \"A Room at the Anchor\", the seaside farce that was the first play ever staged in the building.",
      "Director Felicity Amos has kept the original 1920s setting but trimmed the script to a brisk 95 minutes. Local actor Hugo Penrose steals the show as a harassed innkeeper trying to hide three unexpected guests from a visiting inspector.",
      "The theatre has come close to closing twice in its history, most recently twelve years ago, when a community campaign raised enough money to repair its leaking roof and buy the building from its private owner.",
      "\"Every seat in this room has been paid for by someone who loved it,\" said artistic director Gideon Marsh before the curtain rose. \"Tonight is for them.\"",
      "The centenary season runs until summer and includes a new play by Kestrel Bay writer Nell Ashcombe, a youth theatre production and a week of free Saturday morning shows for families.",
    ],
  },
  {
    category: "worldnews",
    title: "Port Veyra's new tram line carries 60,000 passengers in its first week",
    excerpt:
      "The 14-kilometer line links the city's harbor, university and eastern suburbs, and is free to ride until the end of the month.",
    author: "Helen Okafor-Reid",
    paragraphs: [
      "Port Veyra's first new tram line in half a century carried more than 60,000 passengers in its first week, well above the 40,000 the city's transport authority had forecast.",
      "The 14-kilometer Line 3 runs from the harbor through the old town and the university district to the fast-growing eastern suburbs, with 22 stops. Trams run every six minutes at peak times.",
      "Rides are free until the end of the month to encourage residents to try the service. After that, a single journey will cost the same as a bus fare, and existing city passes will be valid.",
      "\"I used to spend 50 minutes in traffic to get to the university,\" said engineering student Dario Costa. \"Now it's 18 minutes and I can read on the way.\"",
      "Construction took four years and ran eight months late, causing long disruption on the city's main boulevard. The authority has apologized to traders affected by the works and says a compensation scheme remains open until spring.",
    ],
  },
  {
    category: "schools",
    title: "Castell Academy swaps Friday homework for a reading hour",
    excerpt:
      "Students in the three youngest grades no longer take homework home on weekends; instead, Friday afternoons end with an hour of reading for pleasure.",
    author: "Jonah Pemberton",
    paragraphs: [
      "Castell Academy has scrapped weekend homework for its youngest three grades and replaced it with a school-wide reading hour on Friday afternoons, in a trial that will run until the summer.",
      "During the hour, every student and staff member, including the principal and the kitchen team, stops what they are doing and reads a book of their choice. The library has bought 1,200 new titles chosen by students.",
      "\"We want weekends to be for rest, family and the things young people love doing,\" said principal Rosalind Achebe. \"And we want reading to feel like a pleasure rather than another task.\"",
      "The school will measure reading ages at the start and end of the trial and survey families about wellbeing. Some parents have said they worry their children will fall behind; the school says coursework deadlines and weekday homework are unchanged.",
      "This semester's timetable for the trial:\n- Friday, 2:15 p.m.: reading hour for all grades\n- Monday, 8:40 a.m.: weekly book swap in the library\n- Last Friday of each month: students recommend a book in assembly",
    ],
  },
  {
    category: "news",
    title: "Library fines scrapped as Kestrel Bay borrowing climbs",
    excerpt:
      "A year after the town's libraries stopped charging late fees, loans are up 22 percent and more than 900 lapsed members have come back.",
    author: "Helen Okafor-Reid",
    image: false,
    paragraphs: [
      "Kestrel Bay's three public libraries lent 22 percent more books last year after scrapping late fees, according to figures presented to the town's culture committee on Wednesday.",
      "The council ended fines in a one-year trial, arguing that the money collected, around $14,000 a year, barely covered the cost of chasing it, and that the fees kept some families away altogether.",
      "More than 900 people whose cards had been blocked over unpaid fines have rejoined. Children's borrowing rose fastest, up by more than a third.",
      "Librarians say most books still come back on time. The number of items never returned rose only slightly, from 1.1 to 1.3 percent of loans.",
      "The committee voted unanimously to make the change permanent. Borrowers are still asked to pay for books that are lost or damaged.",
    ],
  },
  {
    category: "technology",
    title: "Fiber broadband reaches the last 900 homes in Halden County",
    excerpt:
      "A community-owned network has connected the county's most remote farms and hamlets, five years after residents started digging their own trenches.",
    author: "Ines Kowalczyk",
    paragraphs: [
      "The last 900 homes in Halden County without a fast internet connection were switched on this week, completing a community-owned fiber network that residents began building themselves five years ago.",
      "The network, run by the not-for-profit Halden Fiber Co-op, now reaches more than 4,300 homes and businesses across 38 villages and hamlets, many of which previously struggled to load a web page.",
      "Volunteers dug much of the trench network by hand or with borrowed farm machinery, cutting the cost per home to around a third of what commercial providers had quoted. Landowners gave permission to cross their fields free of charge.",
      "\"My daughter can do her homework without driving to the library parking lot for a signal, and I can finally sell my cheese online,\" said Beth Norland, who farms near the hamlet of Skelby.",
      "Members pay a flat monthly fee, and any surplus goes back into maintenance and a fund that helps low-income households with the cost of connection.",
    ],
  },
  {
    category: "sport",
    title: "Kestrel Bay masters swimmers set four county records",
    excerpt:
      "The club's over-50 relay squad broke two records at the county championships, and 71-year-old Margaret Ellery added two more on her own.",
    author: "Marcus Delacroix-Webb",
    paragraphs: [
      "Swimmers from Kestrel Bay Swimming Club's masters squad set four county records at the county championships in Castell on Saturday, the club's best result at the event in its 60-year history.",
      "The over-50 women's relay team of Jan Pruitt, Dorothy Kaye, Sheila Marr and Anne Vickery broke the 4x50-meter freestyle and medley relay records, each by more than a second.",
      "Margaret Ellery, 71, added records in the 100-meter and 200-meter backstroke for her age group. She took up competitive swimming only six years ago, after her doctor recommended it following a knee operation.",
      "\"I was the one standing in the shallow end not wanting to put my face in the water,\" Ellery said. \"Now I can't imagine my week without it.\"",
      "The masters squad trains three mornings a week at the Harbor Leisure Center and welcomes adult swimmers of any standard.",
    ],
  },
  {
    category: "entertainment",
    title: "Folk quartet Tallow & Pine record new album inside a lighthouse",
    excerpt:
      "The band spent two weeks in the decommissioned Gullstone lighthouse, using its spiral stairwell as a natural echo chamber.",
    author: "Sunniva Halloran",
    paragraphs: [
      "Marrowby folk quartet Tallow & Pine have finished recording their third album inside the decommissioned Gullstone lighthouse, carrying instruments, microphones and a small generator up its 118 steps.",
      "The band says the tower's stone spiral stairwell gave the recordings a natural reverb that no studio could imitate. Fiddler Josie Garland recorded one track standing at the top of the stairs while the rest of the band played at the bottom.",
      "\"We had to stop whenever the wind changed direction, because the whole tower hums,\" said singer and guitarist Owen Lacey. \"In the end we left some of the humming in.\"",
      "The album, called \"Keeper's Hours\", features eleven songs inspired by the lives of the lighthouse keepers who worked at Gullstone until it was automated in the 1980s.",
      "It will be released in the spring, and the band will play a launch concert at the Lantern Theatre in Kestrel Bay, with a smaller acoustic show in the lighthouse itself for 30 ticket holders chosen by ballot.",
    ],
  },
  {
    category: "worldnews",
    title: "Island of Saint Aubrel opens solar-powered desalination plant",
    excerpt:
      "The plant will supply half of the island's drinking water and end its dependence on water shipped from the mainland in dry summers.",
    author: "Aisha Rahmanova",
    paragraphs: [
      "The small island of Saint Aubrel has opened a solar-powered desalination plant that will supply about half of its 9,000 residents' drinking water, ending a decades-long reliance on tanker ships during dry summers.",
      "The plant turns seawater into fresh water using reverse osmosis, powered by a field of solar panels on the hills above the harbor and a battery bank that keeps it running through the night.",
      "In recent summers the island has spent heavily on shipping water from the mainland, and strict rationing has hit its hotels and restaurants at the height of the tourist season.",
      "\"For the first time, we control our own water,\" said the island's mayor, Corinne Lavalle, at the opening. \"That is a kind of independence that matters more than people realize.\"",
      "Marine biologists have been monitoring the bay where the plant returns its salty brine to the sea. The first six months of measurements show no harm to the seagrass meadows nearby, and monitoring will continue for five years.",
    ],
  },
  {
    category: "schools",
    title: "Alder Falls Elementary students publish a field guide to their school pond",
    excerpt:
      "Thirty ten-year-olds spent a year recording the pond's insects, plants and amphibians, and the result is now on sale in local bookshops.",
    author: "Jonah Pemberton",
    paragraphs: [
      "Students at Alder Falls Elementary School have published a 48-page illustrated field guide to the wildlife in their school pond, after a year of weekly observations, sketches and careful note-taking.",
      "The guide describes 64 species, from great diving beetles and common frogs to water mint and yellow flag iris. Every illustration was drawn by a student, and each entry includes the date and weather when the species was first spotted.",
      "\"We found a newt on the very first day and everyone screamed,\" said ten-year-old Leo Brannigan. \"By the end we could tell three different kinds of damselfly apart.\"",
      "Class teacher Nadia Ferrante said the project had covered science, art, writing and math. \"They measured the water temperature every Monday for a year. Now they can explain why the frogspawn appeared when it did.\"",
      "The guide is on sale at two bookshops in town, with all proceeds going towards a second pond and a wildflower meadow on the school field.",
    ],
  },
  {
    category: "news",
    title: "Farmers' market moves indoors to the old Marrowby tram depot",
    excerpt:
      "The Saturday market's 60 stalls now have a permanent, heated home in the restored Victorian depot on Depot Lane.",
    author: "Priya Lindqvist",
    paragraphs: [
      "Marrowby's Saturday farmers' market has moved into the restored Victorian tram depot on Depot Lane, giving its 60 stallholders a permanent roof for the first time in the market's 25-year history.",
      "The red-brick depot, which stood empty for almost two decades, has been repaired by a community trust with help from a heritage grant. Its original iron roof trusses and tram rails have been kept and are now lit from below.",
      "Stallholders say the move will end the winter months when wind and rain kept shoppers away. \"Last January I sold six loaves one Saturday,\" said baker Ioana Petrescu. \"Today I was sold out by eleven.\"",
      "The depot will also host a weekday café run by a local training charity, and its upper floor is being converted into workshops for small food producers.",
      "The market is open every Saturday from 8 a.m. to 2 p.m., with late opening on the first Friday of each month.",
    ],
  },
  {
    category: "sport",
    title: "Community cricket ground saved after three-year fundraising drive",
    excerpt:
      "Hollins Park Cricket Club has bought its ground from the developer who planned to build on it, thanks to more than 2,000 donors.",
    author: "Callum Ferreira",
    image: false,
    paragraphs: [
      "Hollins Park Cricket Club in Marrowby has completed the purchase of its ground, ending a three-year campaign to save the field from a housing development.",
      "The club raised $640,000 from more than 2,000 donors, a sports foundation grant and a share offer to members. The developer agreed to sell after the council refused planning permission for a second time.",
      "Cricket has been played on the field since the 1890s. The club now runs four senior teams, a women's side launched two years ago, and junior sessions for more than 150 children.",
      "\"There were moments when we thought it was over,\" said club chair Vikram Sethi. \"But every time, someone turned up with a check, a cake sale or an idea. This ground belongs to the town now.\"",
      "The club plans to refurbish its pavilion and add changing rooms suitable for mixed teams over the next two seasons.",
    ],
  },
  {
    category: "technology",
    title: "Hospital scheduling app cuts outpatient waiting times by a fifth",
    excerpt:
      "A six-month trial at Halden General let patients swap appointments with each other, filling slots that would otherwise have gone empty.",
    paragraphs: [
      "A scheduling app trialled by Halden General Hospital has cut average waiting times for outpatient appointments by about a fifth, according to results published by the hospital's research team this week.",
      "The app, developed by a small local company called Tidewell Health, lets patients cancel or swap appointments with a tap and offers freed slots to others on the waiting list within minutes.",
      "Before the trial, roughly one outpatient appointment in twelve went unused because patients could not attend and did not manage to cancel in time. During the trial that fell to one in thirty.",
      "\"Nobody wants to waste a clinic slot. People just found it too hard to tell us,\" said Dr Ama Boateng, the consultant who led the trial. Patients without smartphones could still use a phone line, which now connects to the same system.",
      "The hospital plans to extend the app to all outpatient clinics over the next year and has published its anonymized results so other hospitals can compare.",
    ],
  },
];
