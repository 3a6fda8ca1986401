import type { Db } from './engine';

type SeedOrder = {
  id: string;
  status: 'processing' | 'shipped' | 'in_transit' | 'delivered' | 'cancelled' | 'returned';
  carrier: string | null;
  eta: string | null;
  items: { sku: string; name: string; quantity: number }[];
  placedAt: string;
  /** What it cost, in minor units (cents, fen) of `currency`. */
  totalMinor: number;
  currency: 'CNY' | 'USD';
};

/** The sample orders every fresh database starts with (ids A1001…A1008). */
export const sampleOrders: readonly SeedOrder[] = [
  {
    id: 'A1001',
    status: 'shipped',
    carrier: 'SF Express',
    eta: '2025-06-12',
    items: [{ sku: 'HP-200', name: 'Wireless headphones', quantity: 1 }],
    placedAt: '2025-06-08T09:12:00.000Z',
    totalMinor: 89900,
    currency: 'CNY',
  },
  {
    id: 'A1002',
    status: 'processing',
    carrier: null,
    eta: '2025-06-15',
    items: [
      { sku: 'MUG-01', name: 'Ceramic mug', quantity: 2 },
      { sku: 'TEA-05', name: 'Jasmine tea (100 g)', quantity: 1 },
    ],
    placedAt: '2025-06-10T14:30:00.000Z',
    totalMinor: 52000,
    currency: 'USD',
  },
  {
    id: 'A1003',
    status: 'delivered',
    carrier: 'JD Logistics',
    eta: '2025-06-03',
    items: [{ sku: 'KB-87', name: 'Mechanical keyboard', quantity: 1 }],
    placedAt: '2025-05-30T08:00:00.000Z',
    totalMinor: 64900,
    currency: 'USD',
  },
  {
    id: 'A1004',
    status: 'in_transit',
    carrier: 'DHL',
    eta: '2025-06-18',
    items: [{ sku: 'LMP-3', name: 'Desk lamp', quantity: 1 }],
    placedAt: '2025-06-09T19:45:00.000Z',
    totalMinor: 56800,
    currency: 'CNY',
  },
  {
    id: 'A1005',
    status: 'cancelled',
    carrier: null,
    eta: null,
    items: [{ sku: 'BAG-22', name: 'Laptop backpack', quantity: 1 }],
    placedAt: '2025-06-01T11:20:00.000Z',
    totalMinor: 51250,
    currency: 'USD',
  },
  {
    id: 'A1006',
    status: 'returned',
    carrier: 'YTO Express',
    eta: null,
    items: [{ sku: 'SHOE-41', name: 'Running shoes (EU 41)', quantity: 1 }],
    placedAt: '2025-05-20T16:05:00.000Z',
    totalMinor: 79900,
    currency: 'CNY',
  },
  {
    id: 'A1007',
    status: 'shipped',
    carrier: 'ZTO Express',
    eta: '2025-06-14',
    items: [
      { sku: 'CBL-USB-C', name: 'USB-C cable (2 m)', quantity: 3 },
      { sku: 'CHG-65', name: '65 W charger', quantity: 1 },
    ],
    placedAt: '2025-06-10T07:55:00.000Z',
    totalMinor: 53000,
    currency: 'USD',
  },
  {
    id: 'A1008',
    status: 'processing',
    carrier: null,
    eta: '2025-06-20',
    items: [{ sku: 'MON-27', name: '27-inch monitor', quantity: 1 }],
    placedAt: '2025-06-11T21:10:00.000Z',
    totalMinor: 249900,
    currency: 'CNY',
  },
];

type SeedArticle = { topic: string; lang: 'zh' | 'en'; title: string; body: string; keywords: string };

/** The help-centre articles every fresh database starts with: each topic in Chinese and English. */
export const sampleArticles: readonly SeedArticle[] = [
  {
    topic: 'returns',
    lang: 'zh',
    title: '退货政策',
    body: '签收后 30 天内可申请无理由退货。商品需保持完好、配件齐全；定制商品和已拆封的耳机等个人卫生用品除外。在订单详情页点击「申请退货」，或联系客服创建工单。',
    keywords: '退货 退回 退换 退货政策 无理由退货 7天 30天',
  },
  {
    topic: 'returns',
    lang: 'en',
    title: 'Return policy',
    body: 'You can return most items within 30 days of delivery, no questions asked. Items must be undamaged and complete; custom-made items and opened personal-hygiene products such as earphones are excluded. Start a return from the order page or ask support to open a ticket.',
    keywords: 'return returns returning policy send back money back',
  },
  {
    topic: 'refunds',
    lang: 'zh',
    title: '退款说明',
    body: '仓库收到退货并验收后 1–3 个工作日内发起退款，原路退回。银行卡到账通常需要 3–7 个工作日，余额支付即时到账。运费险覆盖的退货运费会一并退还。',
    keywords: '退款 退钱 到账 退款时间 原路退回 怎么退款',
  },
  {
    topic: 'refunds',
    lang: 'en',
    title: 'Refunds',
    body: 'Once the warehouse has received and checked your return, we issue the refund within 1–3 business days to the original payment method. Card refunds usually appear in 3–7 business days; wallet refunds are instant.',
    keywords: 'refund refunds money back reimbursement refund policy',
  },
  {
    topic: 'shipping',
    lang: 'zh',
    title: '配送时效与运费',
    body: '现货商品 24 小时内发货，国内一般 2–4 天送达，偏远地区 5–7 天。订单满 99 元包邮，不满收取 8 元运费。可在结算时选择顺丰加急（另付 15 元）。',
    keywords: '配送 发货 运费 包邮 多久到 送达 快递 物流时效',
  },
  {
    topic: 'shipping',
    lang: 'en',
    title: 'Shipping times and costs',
    body: 'In-stock items ship within 24 hours. Standard delivery takes 2–4 business days (5–7 for remote areas). Shipping is free on orders over ¥99, otherwise ¥8; express delivery is available at checkout for ¥15.',
    keywords: 'shipping delivery ship how long shipping cost free shipping express',
  },
  {
    topic: 'warranty',
    lang: 'zh',
    title: '保修政策',
    body: '电子产品享受 1 年质保，自签收之日起计算。质保期内非人为损坏可免费维修或更换。请保留订单号，联系客服创建工单并附上故障描述和照片。',
    keywords: '保修 质保 维修 坏了 故障 换新',
  },
  {
    topic: 'warranty',
    lang: 'en',
    title: 'Warranty',
    body: 'Electronics come with a one-year warranty from the delivery date. Faults that are not caused by accidents or misuse are repaired or replaced free of charge. Keep your order number and open a support ticket with a description and photos.',
    keywords: 'warranty guarantee repair broken faulty defect replacement',
  },
  {
    topic: 'payment',
    lang: 'zh',
    title: '支付方式',
    body: '支持支付宝、微信支付、银联卡和主流信用卡。下单后 30 分钟内未支付的订单会自动取消。企业客户可申请对公转账。',
    keywords: '支付 付款 支付方式 支付宝 微信 信用卡 银行卡',
  },
  {
    topic: 'payment',
    lang: 'en',
    title: 'Payment methods',
    body: 'We accept Alipay, WeChat Pay, UnionPay and the major credit cards. Orders that are not paid within 30 minutes are cancelled automatically. Business customers can ask for a bank transfer.',
    keywords: 'payment pay methods credit card alipay wechat checkout',
  },
  {
    topic: 'tracking',
    lang: 'zh',
    title: '如何查询订单物流',
    body: '发货后会通过短信发送运单号。你也可以在「我的订单」中查看物流进度，或直接告诉助手订单号（例如 A1001）查询状态和预计送达时间。',
    keywords: '物流 查询订单 订单状态 到哪了 运单号 跟踪',
  },
  {
    topic: 'tracking',
    lang: 'en',
    title: 'Tracking your order',
    body: 'When your order ships we text you the tracking number. You can follow it under My Orders, or give the assistant your order number (for example A1001) to get its status and estimated delivery date.',
    keywords: 'track tracking order status where is my order tracking number',
  },
  {
    topic: 'cancelling',
    lang: 'zh',
    title: '取消订单',
    body: '订单发货前可以在订单详情页直接取消，款项原路退回。已发货的订单无法取消，请在签收后按退货流程处理。',
    keywords: '取消 取消订单 不想要了 撤销',
  },
  {
    topic: 'cancelling',
    lang: 'en',
    title: 'Cancelling an order',
    body: 'You can cancel an order from its detail page until it ships; the payment is returned to the original method. Orders that have shipped cannot be cancelled: return them after delivery instead.',
    keywords: 'cancel cancelling cancellation cancel order',
  },
  {
    topic: 'support',
    lang: 'zh',
    title: '联系客服与工单',
    body: '遇到问题可以让助手为你创建工单，工单号形如 TK-000123。客服在工作日 9:00–18:00 内 4 小时内回复，可凭工单号查询进度。',
    keywords: '客服 工单 投诉 人工 联系 售后',
  },
  {
    topic: 'support',
    lang: 'en',
    title: 'Contacting support and tickets',
    body: 'Ask the assistant to open a support ticket; ticket numbers look like TK-000123. Our team answers within 4 hours on business days (9:00–18:00), and you can quote the ticket number to follow up.',
    keywords: 'support ticket contact help complaint customer service human agent',
  },
  {
    topic: 'exchanges',
    lang: 'zh',
    title: '换货说明',
    body: '签收后 15 天内，尺码或颜色不合适可申请换货一次，换货运费由我们承担。质量问题换货不受次数限制。',
    keywords: '换货 换尺码 换颜色 尺码不合适',
  },
  {
    topic: 'exchanges',
    lang: 'en',
    title: 'Exchanges',
    body: 'Within 15 days of delivery you can exchange an item once for another size or colour; we pay the shipping for the exchange. Exchanges for defects are not limited.',
    keywords: 'exchange exchanges swap size colour color',
  },
  {
    topic: 'invoices',
    lang: 'zh',
    title: '发票',
    body: '下单时可选择开具电子普通发票或增值税专用发票，电子发票在签收后 24 小时内发送到你的邮箱。需要补开发票请联系客服。',
    keywords: '发票 开票 增值税 电子发票 报销',
  },
  {
    topic: 'invoices',
    lang: 'en',
    title: 'Invoices',
    body: 'Choose an electronic invoice or a VAT invoice at checkout; electronic invoices are emailed within 24 hours of delivery. Contact support if you need an invoice for an earlier order.',
    keywords: 'invoice invoices receipt vat billing',
  },
];

/**
 * Inserts the sample orders, without their totals: the seeding migration runs before orders had
 * a total, and `fillSampleOrderTotals` (the migration that added it) fills them in.
 */
export async function seedOrders(db: Db): Promise<void> {
  await db
    .insertInto('orders')
    .values(
      sampleOrders.map((order) => ({
        id: order.id,
        status: order.status,
        carrier: order.carrier,
        eta: order.eta,
        items: JSON.stringify(order.items),
        placed_at: order.placedAt,
      })),
    )
    .execute();
}

/**
 * Gives each sample order that has no total yet its total and currency: a new database and one
 * seeded before orders had totals end up the same. An order an operator deleted stays deleted,
 * and a total already set is left alone.
 */
export async function fillSampleOrderTotals(db: Db): Promise<void> {
  for (const order of sampleOrders) {
    await db
      .updateTable('orders')
      .set({ total_minor: order.totalMinor, currency: order.currency })
      .where('id', '=', order.id)
      .where('total_minor', 'is', null)
      .execute();
  }
}

/** Inserts the sample articles (on SQLite the FTS index follows through triggers). Called by the seeding migration only. */
export async function seedKnowledgeArticles(db: Db): Promise<void> {
  await db
    .insertInto('knowledge_articles')
    .values(
      sampleArticles.map((article) => ({
        id: `kb-${article.topic}-${article.lang}`,
        topic: article.topic,
        lang: article.lang,
        title: article.title,
        body: article.body,
        keywords: article.keywords,
      })),
    )
    .execute();
}
