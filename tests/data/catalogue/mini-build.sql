BEGIN TRANSACTION;
CREATE TABLE berserker_cards (
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	count INTEGER NOT NULL, 
	type VARCHAR NOT NULL, 
	value INTEGER, 
	damage INTEGER, 
	destroys_user BOOLEAN, 
	negates VARCHAR, 
	restriction VARCHAR, 
	PRIMARY KEY (id)
);
INSERT INTO "berserker_cards" VALUES('marines','Marines',8,'attack',1,2,1,NULL,'{"text":"Ramships only","ships":["ramship"],"side":null,"against":null}');
INSERT INTO "berserker_cards" VALUES('evasion','Evasion',4,'defense',NULL,NULL,0,'attack','{"text":"Humans only","ships":null,"side":"human","against":null}');
CREATE TABLE berserker_ships (
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	side VARCHAR NOT NULL, 
	count INTEGER NOT NULL, 
	hits INTEGER NOT NULL, 
	speed INTEGER NOT NULL, 
	range INTEGER NOT NULL, 
	attacks_per_turn INTEGER NOT NULL, 
	fires_through_ships BOOLEAN NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "berserker_ships" VALUES('berserker','Berserker','berserker',1,20,2,5,3,0);
CREATE TABLE cards (
	game VARCHAR NOT NULL, 
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	latin VARCHAR NOT NULL, 
	set_id VARCHAR, 
	kind VARCHAR, 
	colour VARCHAR, 
	elements VARCHAR, 
	level INTEGER, 
	cost INTEGER, 
	elite BOOLEAN, 
	is_unique BOOLEAN, 
	rarity VARCHAR, 
	mercenary BOOLEAN, 
	data VARCHAR NOT NULL, 
	position INTEGER NOT NULL, 
	name_key VARCHAR NOT NULL, 
	latin_key VARCHAR NOT NULL, 
	loose_key VARCHAR NOT NULL, 
	search_key VARCHAR NOT NULL, 
	set_label VARCHAR, 
	PRIMARY KEY (game, id)
);
INSERT INTO "cards" VALUES('berserk-tcg','BK1-001','Mercenary','Mercenary','BK1','character','white',NULL,0,1,NULL,0,NULL,1,'{"id":"BK1-001","set":"BK1","number":1,"name":"Mercenary","colour":"white","cost":{"white":1,"green":0,"black":0,"red":0,"colourless":0},"level":0,"unique":false,"quick":false,"kind":"character","power":1,"hp":1,"range":0,"movement":1,"subtypes":["Mercenary"],"mercenary":true}',0,'mercenary','mercenary','mercenari',' mercenary / mercenari / bk1 001 / bk1 01 ','TCG BK1 Volume 1');
INSERT INTO "cards" VALUES('berserk-tcg','BK1-011','Guts','Guts','BK1','character','white',NULL,1,2,NULL,1,NULL,0,'{"id":"BK1-011","set":"BK1","number":11,"name":"Guts","colour":"white","cost":{"white":1,"green":0,"black":0,"red":0,"colourless":1},"level":1,"unique":true,"quick":false,"kind":"character","power":2,"hp":3,"range":0,"movement":1,"subtypes":["Hawk"],"mercenary":false}',1,'guts','guts','guc',' guts / guc / bk1 011 / bk1 01 ','TCG BK1 Volume 1');
INSERT INTO "cards" VALUES('berserk-tcg','BK1-041','Mercenary','Mercenary','BK1','character','green',NULL,0,1,NULL,0,NULL,1,'{"id":"BK1-041","set":"BK1","number":41,"name":"Mercenary","colour":"green","cost":{"white":0,"green":1,"black":0,"red":0,"colourless":0},"level":0,"unique":false,"quick":false,"kind":"character","power":1,"hp":1,"range":0,"movement":1,"subtypes":["Mercenary"],"mercenary":true}',2,'mercenary','mercenary','mercenari',' mercenary / mercenari / bk1 041 ','TCG BK1 Volume 1');
INSERT INTO "cards" VALUES('berserk-tcg','BK1-160','New Wings','New Wings','BK1','effect-normal','red',NULL,3,1,NULL,0,NULL,0,'{"id":"BK1-160","set":"BK1","number":160,"name":"New Wings","colour":"red","cost":{"white":0,"green":0,"black":0,"red":1,"colourless":0},"level":3,"unique":false,"quick":false,"kind":"effect-normal","power":null,"hp":null,"range":null,"movement":null,"subtypes":[],"mercenary":false}',3,'newwings','newwings','nevings',' new wings / nev vings / bk1 160 ','TCG BK1 Volume 1');
INSERT INTO "cards" VALUES('berserk-tcg','CITY-R','Royal City','Royal City','CITY','city',NULL,NULL,NULL,NULL,NULL,0,NULL,0,'{"id":"CITY-R","set":null,"number":null,"name":"Royal City","colour":null,"cost":null,"level":null,"unique":false,"quick":false,"kind":"city","power":null,"hp":null,"range":null,"movement":null,"subtypes":["Royal"],"mercenary":false}',4,'royalcity','royalcity','roialciti',' royal city / roial citi / city r / citi r ','TCG CITY Cities');
INSERT INTO "cards" VALUES('berserk-ccg','10001','Кочевник','Kochevnik','10','creature',NULL,'steppe',NULL,3,0,0,'common',NULL,'{"id":"10001","set":10,"number":1,"name":"Кочевник","latin":"Kochevnik","rarity":"common","cost":3,"elite":false,"unique":false,"elements":["steppe"],"type":"creature","zone":"battlefield","life":8,"move":2,"strike":{"weak":1,"medium":2,"strong":3},"classes":[],"icons":{},"horde":false}',5,'кочевник','kochevnik','kochevnik',' кочевник / kochevnik / 10001 / 101 ','CCG 10 Война стихий');
INSERT INTO "cards" VALUES('berserk-ccg','10200','Волот','Volot','10','creature',NULL,'',NULL,9,1,1,'ultra-rare',NULL,'{"id":"10200","set":10,"number":200,"name":"Волот","latin":"Volot","rarity":"ultra-rare","cost":9,"elite":true,"unique":true,"elements":[],"type":"creature","zone":"battlefield","life":24,"move":1,"strike":{"weak":5,"medium":6,"strong":7},"classes":[],"icons":{"clm":0,"zoo":0,"zor":0},"horde":false}',6,'волот','volot','volot',' волот / volot / 10200 / 1020 ','CCG 10 Война стихий');
INSERT INTO "cards" VALUES('berserk-online','b_aspid','Аспид','Aspid','1','creature',NULL,'swamps',NULL,9,0,0,'r',NULL,'{"id":"b_aspid","name":"Аспид","latin":"Aspid","type":"creature","flying":false,"ranged":false,"elements":["swamps"],"elite":false,"cost":9,"life":15,"strike":{"weak":3,"medium":4,"strong":4},"moves":1,"classes":[],"abilities":["regen","poison"],"horde":false,"unlimited":false,"loner":false,"series":1,"rarity":"r"}',7,'аспид','aspid','aspid',' аспид / aspid / b aspid ','Online 1 Series 1');
INSERT INTO "cards" VALUES('berserk-online','b_ayard','Аярд','Aiard','1','creature',NULL,'swamps',NULL,4,0,0,'c',NULL,'{"id":"b_ayard","name":"Аярд","latin":"Aiard","type":"creature","flying":false,"ranged":false,"elements":["swamps"],"elite":false,"cost":4,"life":8,"strike":{"weak":1,"medium":2,"strong":1},"moves":1,"classes":["arhaalit"],"abilities":["kick.aim.2","poison"],"horde":false,"unlimited":false,"loner":false,"series":1,"rarity":"c"}',8,'аярд','aiard','aiard',' аярд / aiard / b ayard / b aiard ','Online 1 Series 1');
INSERT INTO "cards" VALUES('berserker','marines','Marines','Marines','standard','attack',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'{"id":"marines","name":"Marines","count":8,"type":"attack","value":1,"damage":2,"negates":null,"restriction":{"text":"Ramships only","ships":["ramship"],"side":null,"against":null},"destroys_user":true}',9,'marines','marines','marines',' marines ','Berserker standard Standard deck');
INSERT INTO "cards" VALUES('berserker','evasion','Evasion','Evasion','standard','defense',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'{"id":"evasion","name":"Evasion","count":4,"type":"defense","value":null,"damage":null,"negates":"attack","restriction":{"text":"Humans only","ships":null,"side":"human","against":null},"destroys_user":false}',10,'evasion','evasion','evasion',' evasion ','Berserker standard Standard deck');
CREATE TABLE ccg_cards (
	id VARCHAR NOT NULL, 
	"set" INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	latin VARCHAR NOT NULL, 
	rarity VARCHAR NOT NULL, 
	cost INTEGER NOT NULL, 
	elite BOOLEAN NOT NULL, 
	"unique" BOOLEAN NOT NULL, 
	elements VARCHAR NOT NULL, 
	type VARCHAR NOT NULL, 
	zone VARCHAR NOT NULL, 
	life INTEGER, 
	move INTEGER, 
	strike VARCHAR, 
	classes VARCHAR NOT NULL, 
	icons VARCHAR NOT NULL, 
	horde BOOLEAN NOT NULL, 
	printings VARCHAR, 
	PRIMARY KEY (id)
);
INSERT INTO "ccg_cards" VALUES('10001',10,1,'Кочевник','Kochevnik','common',3,0,0,'["steppe"]','creature','battlefield',8,2,'{"weak":1,"medium":2,"strong":3}','[]','{}',0,NULL);
INSERT INTO "ccg_cards" VALUES('10200',10,200,'Волот','Volot','ultra-rare',9,1,1,'[]','creature','battlefield',24,1,'{"weak":5,"medium":6,"strong":7}','[]','{"clm":0,"zoo":0,"zor":0}',0,NULL);
CREATE TABLE formats (
	name VARCHAR NOT NULL, 
	game VARCHAR, 
	data VARCHAR NOT NULL, 
	PRIMARY KEY (name)
);
CREATE TABLE meta (
	"key" VARCHAR NOT NULL, 
	value VARCHAR NOT NULL, 
	PRIMARY KEY ("key")
);
INSERT INTO "meta" VALUES('kind','cardkit-catalogue');
INSERT INTO "meta" VALUES('catalogue_hash','e9ba83162a58ce073ef3d78d2a0f958f768253d6798f35542efd2d89dbd9a451');
INSERT INTO "meta" VALUES('formats_hash','e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
INSERT INTO "meta" VALUES('layout','6');
CREATE TABLE online_cards (
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	latin VARCHAR NOT NULL, 
	type VARCHAR NOT NULL, 
	flying BOOLEAN NOT NULL, 
	ranged BOOLEAN NOT NULL, 
	elements VARCHAR NOT NULL, 
	elite BOOLEAN NOT NULL, 
	cost INTEGER NOT NULL, 
	life INTEGER, 
	strike VARCHAR, 
	moves INTEGER, 
	classes VARCHAR NOT NULL, 
	abilities VARCHAR NOT NULL, 
	horde BOOLEAN NOT NULL, 
	unlimited BOOLEAN NOT NULL, 
	loner BOOLEAN NOT NULL, 
	series INTEGER, 
	rarity VARCHAR, 
	PRIMARY KEY (id)
);
INSERT INTO "online_cards" VALUES('b_aspid','Аспид','Aspid','creature',0,0,'["swamps"]',0,9,15,'{"weak":3,"medium":4,"strong":4}',1,'[]','["regen","poison"]',0,0,0,1,'r');
INSERT INTO "online_cards" VALUES('b_ayard','Аярд','Aiard','creature',0,0,'["swamps"]',0,4,8,'{"weak":1,"medium":2,"strong":1}',1,'["arhaalit"]','["kick.aim.2","poison"]',0,0,0,1,'c');
CREATE TABLE sets (
	game VARCHAR NOT NULL, 
	id VARCHAR NOT NULL, 
	name VARCHAR, 
	latin VARCHAR, 
	cards INTEGER NOT NULL, 
	PRIMARY KEY (game, id)
);
INSERT INTO "sets" VALUES('berserk-tcg','BK1','Volume 1','Volume 1',4);
INSERT INTO "sets" VALUES('berserk-tcg','CITY','Cities','Cities',1);
INSERT INTO "sets" VALUES('berserk-ccg','10','Война стихий','Voina stikhii',2);
INSERT INTO "sets" VALUES('berserk-online','1','Series 1','Series 1',2);
INSERT INTO "sets" VALUES('berserker','standard','Standard deck','Standard deck',2);
CREATE TABLE tcg_cards (
	id VARCHAR NOT NULL, 
	"set" VARCHAR, 
	number INTEGER, 
	name VARCHAR NOT NULL, 
	colour VARCHAR, 
	cost VARCHAR, 
	level INTEGER, 
	"unique" BOOLEAN NOT NULL, 
	quick BOOLEAN NOT NULL, 
	kind VARCHAR NOT NULL, 
	power INTEGER, 
	hp INTEGER, 
	range INTEGER, 
	movement INTEGER, 
	subtypes VARCHAR NOT NULL, 
	mercenary BOOLEAN NOT NULL, 
	cost_white INTEGER, 
	cost_green INTEGER, 
	cost_black INTEGER, 
	cost_red INTEGER, 
	cost_colourless INTEGER, 
	PRIMARY KEY (id)
);
INSERT INTO "tcg_cards" VALUES('BK1-001','BK1',1,'Mercenary','white','{"white":1,"green":0,"black":0,"red":0,"colourless":0}',0,0,0,'character',1,1,0,1,'["Mercenary"]',1,1,0,0,0,0);
INSERT INTO "tcg_cards" VALUES('BK1-011','BK1',11,'Guts','white','{"white":1,"green":0,"black":0,"red":0,"colourless":1}',1,1,0,'character',2,3,0,1,'["Hawk"]',0,1,0,0,0,1);
INSERT INTO "tcg_cards" VALUES('BK1-041','BK1',41,'Mercenary','green','{"white":0,"green":1,"black":0,"red":0,"colourless":0}',0,0,0,'character',1,1,0,1,'["Mercenary"]',1,0,1,0,0,0);
INSERT INTO "tcg_cards" VALUES('BK1-160','BK1',160,'New Wings','red','{"white":0,"green":0,"black":0,"red":1,"colourless":0}',3,0,0,'effect-normal',NULL,NULL,NULL,NULL,'[]',0,0,0,0,1,0);
INSERT INTO "tcg_cards" VALUES('CITY-R',NULL,NULL,'Royal City',NULL,NULL,NULL,0,0,'city',NULL,NULL,NULL,NULL,'["Royal"]',0,NULL,NULL,NULL,NULL,NULL);
CREATE INDEX cards_latin_key ON cards (latin_key);
CREATE INDEX ix_cards_name_key ON cards (name_key);
CREATE INDEX ix_cards_position ON cards (position);
COMMIT;
