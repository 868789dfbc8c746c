import type { ShopSku, Sku, TelemedicineProvider, Doctor } from "@/server/db/generated/client";
import type { OrderWithGraph } from "@/server/domain/orders/queries";
import { paginated } from "@/server/wire/format";
import { presentShopSku, presentSku, presentSkuListEntry } from "./catalogue.presenters";
import { presentDoctor } from "./doctor.presenters";
import { presentManagementOrder } from "./order.presenters";
import { presentTelemedicineProvider } from "./telemedicine-provider.presenters";
import { presentRegistration, presentWaitingRoomStatus } from "./waiting-room.presenters";
import { presentWalletPass } from "./wallet-pass.presenters";

/**
 * Examples for the API explorer. Responses: the real presenters over fixed, fictitious data (as the
 * webhook samples are made), so an example has exactly the fields a response has; the openapi test
 * checks each against its route's schema. Rows are cast from the columns the presenters read.
 */
const CREATED_AT = new Date(1_763_800_000_000);
const UPDATED_AT = new Date(CREATED_AT.getTime() + 600_000);
const page = { page: 0, limit: 50 };
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const sku = {
  id: id(1),
  productId: id(2),
  displayName: "Ibuprofen 400 mg, 20 tablets",
  pzn: "01234567",
  digital: false,
  dosage: "1-0-1",
  unit: "tablets",
  pcs: 20,
  weight: null,
  therapyDuration: 10,
  standardSellingUnit: 1,
  prescriptionName: null,
  skipForPharmacyOrders: false,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
} as Sku;

const shopSku = {
  id: id(3),
  shopId: id(4),
  shopProductId: id(5),
  skuId: sku.id,
  shopSku: "IBU-400-20",
  shopVariationId: "variant-1001",
  price: 399,
  imageUrl: "https://shop.example/images/ibuprofen.png",
  lastSyncedStock: 42,
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
} as ShopSku;

const order: OrderWithGraph = {
  id: id(6),
  name: "#1001",
  externalId: "1001",
  status: "waiting for pharmacy",
  onHold: false,
  customerEmail: "erika@example.com",
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  shopOrder: { id: id(7), externalId: "1001", shop: { id: id(4), identifier: "shop.example" } },
  items: [{ id: id(8), skuId: sku.id, quantity: 2, prescriptionId: null, sku: { displayName: sku.displayName, pzn: sku.pzn } }],
  fulfillments: [{ id: id(9), status: "OPEN", externalId: "f-1", items: [{ id: id(8), status: "OPEN", quantity: 2 }], pharmacyOrder: { status: "waiting for pharmacy", updatedAt: UPDATED_AT } }],
  prescriptions: [],
};

const standing = { id: id(10), status: "waiting", position: 3, estimatedWaitMinutes: 12, videoRoomId: null, allocatedAt: null };

const walletPass = {
  id: id(11),
  templateId: id(12),
  templateDisplayName: "Loyalty card",
  shopIdentifier: "shop.example",
  shopDisplayName: "Sample Shop",
  shopCustomerId: "customer-42",
  status: "active",
  barcodeValue: "WP-7Q2M-9XK4-LT3B",
  lastMessage: null,
  downloadUrl: "https://rx.example/wallet/passes/sample-token.pkpass",
  createdAt: CREATED_AT,
  updatedAt: UPDATED_AT,
  deletedAt: null,
};

const doctor = {
  id: id(13),
  displayName: "Dr. Anna Berger",
  email: "anna.berger@example.com",
  canSignQes: true,
  createdAt: CREATED_AT,
  professionalTitle: "Fachärztin für Allgemeinmedizin",
  practiceName: "Hausarztpraxis Berger",
  practiceStreet: "Friedrichstraße 10",
  practicePostalCode: "10117",
  practiceCity: "Berlin",
  practiceCountry: "DE",
  phone: "+49 30 1234567",
  prescriptionEmail: "rezepte@praxis-berger.example",
  identificationType: "LANR",
  identificationValue: "123456789",
  minutesToRespond: 60,
  canSeeAllPrescriptions: false,
  deactivatedAt: null,
  questionnaires: [{ questionnaireId: id(15) }],
} as Doctor & { questionnaires: { questionnaireId: string }[] };
const provider = { id: id(14), displayName: "Sample Telemedicine", identifier: "sample-telemedicine" } as TelemedicineProvider;

const fulfillmentBody = {
  external_id: "f-1",
  items: [{ external_id: "item-1", sku_reference: "variant-1001", quantity: 2, total_paid: { amount: 798, currency: "EUR" } }],
};

export const managementExamples = {
  /** Request bodies of order intake. */
  createOrderBody: {
    shop_identifier: "shop.example",
    external_id: "1001",
    customer: { id: "customer-42", email: "erika@example.com" },
    delivery_address: { first_name: "Erika", last_name: "Mustermann", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
    shipping_cost: { amount: 495, currency: "EUR" },
    fulfillments: [fulfillmentBody],
  },
  fulfillmentBody: { ...fulfillmentBody, external_id: "f-2" },

  order: presentManagementOrder(order, true),
  orders: paginated([presentManagementOrder(order, true)], 1, page, "orders"),
  sku: presentSku(sku),
  skus: paginated([presentSkuListEntry(sku)], 1, page),
  shopSku: presentShopSku(shopSku),
  shopSkus: paginated([presentShopSku(shopSku)], 1, page),
  doctors: paginated([presentDoctor(doctor)], 1, page),
  telemedicineProviders: { data: [presentTelemedicineProvider(provider)], total: 1 },
  registration: presentRegistration(standing),
  waitingRoomStatus: presentWaitingRoomStatus(standing),
  walletPass: presentWalletPass(walletPass),
  walletPasses: { data: [presentWalletPass(walletPass)], total: 1 },
};
